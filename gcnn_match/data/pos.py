"""The 47-dimensional POS feature of GCNN (char+POS) and a PTB tagger for unparsed datasets.

Chen et al. (Interspeech 2018, Sec. 2.3 and 3.2) concatenate "a 47-dimensional one-hot
vector" of each word's POS tag, "produced by lexical parser tools", to the word vector. The
paper does not list the 47 tags; this module fixes them (docs/gcnn.md#character-and-pos-features,
[U→S]).

The inventory (ids are stable: never reorder, only document):

    id 0          padding (no tag; its one-hot row is all zeros, it is NOT one of the 47)
    ids 1-36      the 36 word-class tags of the Penn Treebank tagset, in the order of
                  Marcus et al. (1993), Table 2: CC CD DT EX FW IN JJ JJR JJS LS MD NN NNS
                  NNP NNPS PDT POS PRP PRP$ RB RBR RBS RP SYM TO UH VB VBD VBG VBN VBP VBZ
                  WDT WP WP$ WRB
    ids 37-45     the 9 punctuation / symbol tags as they appear in PTB parse trees:
                  # $ . , : -LRB- -RRB- `` ''
    id 46         -NONE-, the tag of empty elements (traces) in Treebank trees
    id 47         "other": any tag outside the 46 above (e.g. OntoNotes' HYPH, NFP, ADD, a
                  tagger's unknown output, a missing tag)

So the 47 one-hot dimensions are the 46 preterminal labels of Penn Treebank trees (45 POS
tags + -NONE-) plus one "other" slot; id k (1..47) sets dimension k - 1 and padding sets
none. -NONE- never occurs in parser or tagger output (the Stanford parses shipped with
SNLI/MultiNLI contain 43 of the 45 POS tags), so in practice at most 46 dimensions fire.
DIIN (Gong et al. 2018, cited by the GCNN paper for its one-hot POS feature) also reaches
47, differently: its list holds a padding entry, the same 45 tags and an "XX" tag.

Bracket spellings that some tools emit instead of the Treebank's (`(`, `[`, `-LCB-`...) are
mapped to -LRB- / -RRB- before the lookup.

Tagging (datasets without parses, e.g. Quora): `load_tagger` returns NLTK's pretrained
averaged perceptron tagger when its model is installed, otherwise trains NLTK's
`PerceptronTagger` on the PTB tags of the SNLI parse trees (SNLI dev + any train split;
the SNLI test split's sentences are held out to measure accuracy), fixes the tags of "?",
"!" and wh-words that SNLI captions lack, and caches it. Its training reads the SNLI files
only until it has `max_train_sentences` sentences. `tag_sentences` tags a dataset: each
distinct sentence once, in a pool of processes when there are many. NLTK is imported only
when a tagger is needed, so models can import the inventory cheaply.
"""

import hashlib
import json
import multiprocessing
import os
import pathlib
import random
import time

from gcnn_match.data import registry
from gcnn_match.files import write_text_atomic
from gcnn_match.progress import Progress

PAD_ID = 0

PTB_WORD_TAGS = (
    "CC",
    "CD",
    "DT",
    "EX",
    "FW",
    "IN",
    "JJ",
    "JJR",
    "JJS",
    "LS",
    "MD",
    "NN",
    "NNS",
    "NNP",
    "NNPS",
    "PDT",
    "POS",
    "PRP",
    "PRP$",
    "RB",
    "RBR",
    "RBS",
    "RP",
    "SYM",
    "TO",
    "UH",
    "VB",
    "VBD",
    "VBG",
    "VBN",
    "VBP",
    "VBZ",
    "WDT",
    "WP",
    "WP$",
    "WRB",
)
PTB_PUNCTUATION_TAGS = ("#", "$", ".", ",", ":", "-LRB-", "-RRB-", "``", "''")
EMPTY_ELEMENT_TAG = "-NONE-"
OTHER_TAG = "<other>"

# Position k in this tuple has id k + 1 (id 0 is padding).
POS_TAGS = PTB_WORD_TAGS + PTB_PUNCTUATION_TAGS + (EMPTY_ELEMENT_TAG, OTHER_TAG)
NUM_POS_TAGS = len(POS_TAGS)  # 47: the width of the one-hot POS feature
POS_IDS = {tag: i + 1 for i, tag in enumerate(POS_TAGS)}
OTHER_ID = POS_IDS[OTHER_TAG]

_BRACKET_ALIASES = {
    "(": "-LRB-",
    "[": "-LRB-",
    "{": "-LRB-",
    "-LSB-": "-LRB-",
    "-LCB-": "-LRB-",
    ")": "-RRB-",
    "]": "-RRB-",
    "}": "-RRB-",
    "-RSB-": "-RRB-",
    "-RCB-": "-RRB-",
}

if NUM_POS_TAGS != 47:  # the paper's dimension; a change to the lists above must keep it
    raise AssertionError(f"POS inventory has {NUM_POS_TAGS} tags, the paper uses 47")


def pos_ids(tags):
    """Ids (1..47) of PTB `tags`; tags outside the inventory (and None) get the "other" id."""
    return [POS_IDS.get(_BRACKET_ALIASES.get(tag, tag), OTHER_ID) for tag in tags]


# ---------------------------------------------------------------------------------------
# Tagger for datasets that ship no parses.

TAGGER_DATASET = "snli"
HELD_OUT_SPLIT = "test"
_CACHE_FORMAT = 2  # version 1 saved a format whose loading can run code (.pkl): not read
_TAGGER_FORMAT = "gcnn_match.pos_tagger/1"

# SNLI sentences are image captions: no "?" at all, and wh-words almost only inside
# relative clauses. A tagger trained on them alone tags Quora's "What is ... ?" as
# NNP ... NNP. These closed-class words have one dominant PTB tag (Santorini 1990), so a
# trained tagger looks them up directly (NLTK's `tagdict`) instead of guessing.
QUESTION_LEXICON = {
    "?": ".",
    "!": ".",
    **{
        word: tag
        for lower, tag in (
            ("what", "WP"),
            ("who", "WP"),
            ("whom", "WP"),
            ("whose", "WP$"),
            ("which", "WDT"),
            ("why", "WRB"),
            ("how", "WRB"),
            ("when", "WRB"),
            ("where", "WRB"),
        )
        for word in (lower, lower.capitalize())
    },
}


def tag_tokens(tagger, tokens):
    """PTB tags for `tokens` (one per token)."""
    return [tag for _, tag in tagger.tag(list(tokens))]


# Unique sentences from which `tag_sentences` uses a pool of processes, and sentences per task.
PARALLEL_MIN_SENTENCES = 20_000
_CHUNK_SENTENCES = 2_000
_worker_tagger = None  # the tagger a forked worker of `tag_sentences` inherits


def tag_sentences(tagger, sentences, processes=None, label="POS-tagging"):
    """PTB tags for each of `sentences` (token lists), exactly `tag_tokens`' tags.

    Each distinct sentence is tagged once. With `PARALLEL_MIN_SENTENCES` distinct sentences or
    more, chunks of them are tagged by a pool of forked processes (`processes`, default one
    per usable core); tagging is a function of the sentence alone and the chunks are joined
    in order, so the result does not depend on the number of processes.

    Args:
        tagger: an NLTK tagger (`load_tagger`, `load_saved_tagger`).
        sentences: token lists.
        processes: worker processes; 1 tags in this process.
        label: the progress line's label (`gcnn_match.progress.Progress`).

    Returns:
        One list of tags per sentence, in order.
    """
    index = {}
    for sentence in sentences:
        index.setdefault(tuple(sentence), len(index))
    unique = list(index)
    chunks = [unique[i : i + _CHUNK_SENTENCES] for i in range(0, len(unique), _CHUNK_SENTENCES)]
    processes = processes or _usable_cores()
    progress = Progress(len(unique), label, unit="sentences")
    tagged = []
    for chunk_tags in _map_chunks(tagger, chunks, processes, len(unique)):
        tagged += chunk_tags
        progress.update(len(chunk_tags))
    progress.close()
    return [list(tagged[index[tuple(sentence)]]) for sentence in sentences]


def _map_chunks(tagger, chunks, processes, count):
    """The tags of each chunk, in order: in a pool of forked workers when that pays off."""
    global _worker_tagger
    fork = "fork" in multiprocessing.get_all_start_methods()
    if processes < 2 or count < PARALLEL_MIN_SENTENCES or not fork:
        yield from (_tag_chunk(chunk, tagger) for chunk in chunks)
        return
    _worker_tagger = tagger
    try:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            yield from pool.imap(_tag_chunk, chunks)
    finally:
        _worker_tagger = None


def _tag_chunk(chunk, tagger=None):
    tagger = tagger if tagger is not None else _worker_tagger
    return [tag_tokens(tagger, sentence) for sentence in chunk]


def _usable_cores():
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _train_on_snli(data_dir, train_splits, files, nr_iter, max_train_sentences, seed, log):
    """A tagger trained on the SNLI parses of `train_splits`, measured on the held-out split.

    Training sentences that also occur in the held-out split are dropped. The tagger carries
    its record (counts, held-out accuracy, seconds, `files`) as `tagger.provenance`.
    """
    held_out = tagged_sentences(data_dir, [HELD_OUT_SPLIT])
    held_out_words = {tuple(word for word, _ in sentence) for sentence in held_out}
    train = tagged_sentences(
        data_dir, train_splits, limit=max_train_sentences, exclude=held_out_words
    )
    log(
        f"training a PTB tagger on {len(train)} SNLI sentences ({'+'.join(train_splits)}), "
        f"{nr_iter} passes"
    )
    start = time.perf_counter()
    tagger = train_tagger(train, nr_iter=nr_iter, seed=seed)
    seconds = time.perf_counter() - start
    provenance = {
        "source": f"nltk PerceptronTagger trained on SNLI {'+'.join(train_splits)} parses",
        "train_sentences": len(train),
        "held_out_sentences": len(held_out),
        "held_out_accuracy": tagging_accuracy(tagger, held_out),
        "nr_iter": nr_iter,
        "train_seconds": round(seconds, 1),
        "files": [str(f) for f in files],
    }
    log(
        f"PTB tagger: held-out accuracy {provenance['held_out_accuracy']:.4f} on "
        f"{len(held_out)} SNLI test sentences, trained in {seconds:.0f}s"
    )
    tagger.provenance = provenance
    return tagger


def load_tagger(cache_dir, data_dir, nr_iter=5, max_train_sentences=50_000, seed=0, log=print):
    """A PTB tagger: NLTK's pretrained one if installed, else one trained on SNLI parses.

    Training uses the unique sentences of every SNLI split present except "test" (dev, and
    train when downloaded), at most `max_train_sentences` of them in file order, for
    `nr_iter` perceptron passes (NLTK shuffles between passes; `seed` fixes the order).
    The `QUESTION_LEXICON` is added (see there). Sentences of the SNLI test split are held
    out and the tagging accuracy on them is measured. The trained tagger is saved atomically
    (`save_tagger`) to `cache_dir/pos_tagger/<key>.tagger.json`, where the key hashes the
    contents of the SNLI files used and the training settings, so a second call loads instead
    of retraining; a JSON record `<key>.json` beside it holds the accuracy, sentence counts
    and training time. With `cache_dir=None` the tagger is trained and nothing is written.

    The returned NLTK tagger carries that record as `tagger.provenance` (a dict).
    """
    tagger = _pretrained_tagger()
    if tagger is not None:
        tagger.provenance = {"source": "nltk pretrained averaged_perceptron_tagger_eng"}
        return tagger

    train_splits = [
        split
        for split in registry.available_splits(TAGGER_DATASET, data_dir)
        if split != HELD_OUT_SPLIT
    ]
    if not train_splits:
        raise registry.missing_error(TAGGER_DATASET, "dev", data_dir)
    files = [
        registry.resolve_split(TAGGER_DATASET, split, data_dir)[0]
        for split in train_splits + [HELD_OUT_SPLIT]
    ]
    settings = {
        "format": _CACHE_FORMAT,
        "train_splits": train_splits,
        "nr_iter": nr_iter,
        "max_train_sentences": max_train_sentences,
        "seed": seed,
        "lexicon": QUESTION_LEXICON,
    }
    path = record_path = None
    if cache_dir is not None:
        folder, key = pathlib.Path(cache_dir) / "pos_tagger", _cache_key(files, settings)
        path, record_path = folder / f"{key}.tagger.json", folder / f"{key}.json"
    if path is not None and path.exists():
        return load_saved_tagger(path)

    tagger = _train_on_snli(data_dir, train_splits, files, nr_iter, max_train_sentences, seed, log)
    if path is not None:
        save_tagger(tagger, path)
        write_text_atomic(record_path, json.dumps(tagger.provenance, indent=2))
    return tagger


def save_tagger(tagger, path):
    """Writes a tagger's weights and provenance as JSON (a run keeps the tagger it was trained
    with): data only, so loading a shared run never runs code."""
    weights, tagdict, classes = tagger.encode_json_obj()
    record = {
        "format": _TAGGER_FORMAT,
        "provenance": getattr(tagger, "provenance", {}),
        "classes": sorted(classes),
        "tagdict": tagdict,
        "weights": weights,
    }
    write_text_atomic(path, json.dumps(record, separators=(",", ":")))


def load_saved_tagger(path):
    """The tagger `save_tagger` wrote to `path`; a ValueError for any other file."""
    try:
        stored = json.loads(pathlib.Path(path).read_bytes())
    except ValueError:
        stored = None
    if not isinstance(stored, dict) or stored.get("format") != _TAGGER_FORMAT:
        raise ValueError(
            f"{path} is not a POS tagger saved by gcnn_match.data.pos.save_tagger (JSON with "
            f"format {_TAGGER_FORMAT!r}); retrain, or save the tagger again"
        )
    tagger = _tagger_from_params((stored["weights"], stored["tagdict"], stored["classes"]))
    tagger.provenance = stored["provenance"]
    return tagger


def train_tagger(sentences, nr_iter=5, seed=0):
    """An NLTK averaged perceptron trained on `sentences` (lists of (word, tag)).

    The `QUESTION_LEXICON` entries are then fixed in its tag dictionary.
    """
    from nltk.tag.perceptron import PerceptronTagger

    tagger = PerceptronTagger(load=False)
    # NLTK shuffles with the global `random` between passes; seed it, then restore it so
    # the caller's random stream is untouched.
    state = random.getstate()
    random.seed(seed)
    try:
        tagger.train(sentences, nr_iter=nr_iter)
    finally:
        random.setstate(state)
    tagger.tagdict.update(QUESTION_LEXICON)
    return tagger


def tagging_accuracy(tagger, sentences):
    """Fraction of tokens of `sentences` (lists of (word, tag)) tagged correctly."""
    correct = total = 0
    for sentence in sentences:
        words, gold = zip(*sentence)
        predicted = tag_tokens(tagger, words)
        correct += sum(p == g for p, g in zip(predicted, gold))
        total += len(gold)
    return correct / max(total, 1)


def tagged_sentences(data_dir, splits, limit=None, exclude=()):
    """Unique (word, tag) sentences of both sides of the SNLI `splits`, in file order.

    Args:
        data_dir: the data folder.
        splits: SNLI split names, read in this order.
        limit: stop reading once this many sentences are collected (None or 0: read all).
        exclude: word tuples of sentences to skip (e.g. the held-out split's).
    """
    seen, out = set(exclude), []
    for split in splits:
        examples = registry.read_split(TAGGER_DATASET, split, data_dir)
        for example in examples:
            for tokens, tags in (
                (example.a_tokens, example.a_pos),
                (example.b_tokens, example.b_pos),
            ):
                if not tokens or tags is None or tuple(tokens) in seen:
                    continue
                seen.add(tuple(tokens))
                out.append(list(zip(tokens, tags)))
                if limit and len(out) >= limit:
                    examples.close()
                    return out
    return out


def _pretrained_tagger():
    """NLTK's pretrained English perceptron tagger, or None when its model is not installed."""
    import nltk
    from nltk.tag.perceptron import PerceptronTagger

    try:
        model = nltk.data.find("taggers/averaged_perceptron_tagger_eng/")
    except LookupError:
        return None
    tagger = PerceptronTagger()
    folder = pathlib.Path(getattr(model, "path", str(model)))
    files = sorted(folder.iterdir()) if folder.is_dir() else [folder]
    tagger.model_files = [[str(f), f.stat().st_size, f.stat().st_mtime_ns] for f in files]
    return tagger


def cache_identity(tagger):
    """What a cache of `tagger`'s tags keys on: its provenance (a trained tagger's names the
    SNLI files, its cache the files' contents), and the path, size and modification time of
    the model files NLTK's pretrained tagger was loaded from."""
    return {"provenance": tagger.provenance, "model_files": getattr(tagger, "model_files", None)}


def _tagger_from_params(params):
    from nltk.tag.perceptron import PerceptronTagger

    tagger = PerceptronTagger(load=False)
    tagger.decode_json_params(params)
    return tagger


def _cache_key(files, settings):
    """Hash of the files' contents and the training settings."""
    digest = hashlib.sha1(json.dumps(settings, sort_keys=True).encode("utf-8"))
    for path in files:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]
