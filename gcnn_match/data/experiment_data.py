"""From an experiment config and a data folder to encoded train/dev/test splits (the task's
input side).

Scales: "full" trains on the official train split and selects on dev; "low-resource" trains on
the official dev split minus a held-out part (split by sentence groups) that is used for
selection, and tests on the official test split; "smoke" is low-resource on 1,000 training
and 400 evaluation examples for two epochs, a pipeline check. A dataset's official splits are
`DatasetSpec.official_splits`; one without a train split (a stand-in sample) has no full scale.
"""

import collections
import dataclasses
import functools
import pathlib
from typing import Dict, List

from gcnn_match.data import pos, raw_text, registry
from gcnn_match.data.embeddings import choose_source
from gcnn_match.data.features import TokenFeatures
from gcnn_match.data.pipeline import (
    EncodedSplit,
    PairEncoder,
    file_cache_key,
    tokenize_examples,
    unknown_rate,
    worth_caching,
)
from gcnn_match.data.reading import ReadStats
from gcnn_match.data.splits import group_holdout_split, nested_subset
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.files import InputError

# The smoke budget: two passes over 1,000 pairs took the Quora GCNN-table rows above chance,
# where one pass over 2,000 or two over 400 did not, and a whole table still runs in minutes
# (ESIM and COIN need a full low-resource epoch or more).
SMOKE_TRAIN_EXAMPLES = 1000
SMOKE_EVAL_EXAMPLES = 400
SMOKE_EPOCHS = 2


def official_splits(dataset, variant=None):
    """The dataset's official (train, dev, test) split names, in the registered `variant` when
    given ("paper_dev.gold")."""
    names = registry.get_dataset(dataset).official_splits
    return tuple(f"{name}.{variant}" for name in names) if variant else names


def check_epochs_for_scale(scale, epochs):
    """Refuses an epoch cap at the smoke scale, which trains SMOKE_EPOCHS epochs by definition
    (the run directory would name a cap that is ignored)."""
    if scale == "smoke" and epochs is not None:
        raise ValueError(
            f"--scale=smoke trains {SMOKE_EPOCHS} epochs by definition; for other epochs on few "
            "examples use --scale=low-resource --max_train_examples=N"
        )


def apply_scale(config):
    """Fills the split names, the scale's limits and the padding a model needs into `config`."""
    train, dev, test = official_splits(config.dataset, config.split_variant)
    if config.scale == "full" and train is None and config.train_split is None:
        raise ValueError(
            f"--scale=full: {config.dataset} has no train split; only --scale=low-resource "
            "applies (it trains on the dev split minus a held-out part and tests on test)"
        )
    if config.scale == "full":
        changes = dict(
            train_split=config.train_split or train,
            dev_split=config.dev_split or dev,
            test_split=config.test_split or test,
        )
    else:
        # The model trains on the official dev split; its selection set is a held-out part.
        changes = dict(
            train_split=config.train_split or dev,
            dev_split=config.dev_split or "holdout",
            test_split=config.test_split or test,
        )
    _check_disjoint(config.name, changes)
    # A split the scale trains or selects on scores nothing held out (MultiNLI's dev-matched at
    # the low-resource scale), so it is not evaluated.
    changes["extra_eval_splits"] = tuple(
        split
        for split in config.extra_eval_splits
        if split not in (changes["train_split"], changes["dev_split"])
    )
    if config.model_kwargs.get("code_faithful"):
        # The authors' attention softmax sees the padding and their batch normalisation uses the
        # test batch's statistics: outputs depend on padding and on which examples share a batch.
        changes.update(padding="fixed", eval_batch_size=config.batch_size)
    if config.scale == "smoke":
        changes.update(
            epochs=SMOKE_EPOCHS,
            max_train_examples=config.max_train_examples or SMOKE_TRAIN_EXAMPLES,
            max_eval_examples=config.max_eval_examples or SMOKE_EVAL_EXAMPLES,
        )
    return config.replace(**changes)


def _check_disjoint(name, splits):
    """Refuses a row one of whose splits (`splits`, resolved) is named for two of the roles
    train, selection and test, naming both flags: a split used twice holds nothing out. One
    split named for all three is a pipeline check on one file, and runs."""
    roles = [(f"--{role}_split", splits[f"{role}_split"]) for role in ("train", "dev", "test")]
    if len({split for _, split in roles}) == 1:
        return
    for i, (flag, split) in enumerate(roles):
        for other_flag, other in roles[i + 1 :]:
            if split is not None and split == other and split != "holdout":
                raise ValueError(
                    f"{flag}={split} and {other_flag}={other}: {name} would use one split for "
                    "both, which holds nothing out; name another split for one of them "
                    "(--dev_split=holdout selects on part of the training split)"
                )


def check_split_names(config):
    """Refuses a split that the (scaled) config's dataset does not have, naming the flag,
    before anything is read."""
    spec = registry.get_dataset(config.dataset)
    dev = None if config.dev_split == "holdout" else config.dev_split
    chosen = [
        ("--train_split", config.train_split),
        ("--dev_split", dev),
        ("--test_split", config.test_split),
    ] + [("--override=extra_eval_splits", split) for split in config.extra_eval_splits]
    for flag, split in chosen:
        if split is None or split in spec.splits:
            continue
        own = ""
        if flag.endswith("_split") and ("/" in split or pathlib.Path(split).suffix):
            own = f"; a file of your own is {flag.replace('_split', '_file')}"
        raise ValueError(
            f"{flag}: {config.dataset} has no split {split!r} (splits: "
            f"{', '.join(spec.splits)}){own}"
        )


def split_names(config):
    """The split files that a (scaled) config reads: train, dev, test and the extra evaluation
    splits; a held-out dev part has no file of its own."""
    splits = {config.train_split, config.dev_split, config.test_split}
    return sorted((splits - {"holdout", None}) | set(config.extra_eval_splits))


def check_files(config, data_dir):
    """Opens every file a run of the (scaled) `config` reads and checks what is cheap to check,
    so that a missing, cut or wrong file stops the run in one line before its data is
    prepared: each split's first example (a gzip header on the way), and the vectors
    (`embeddings.choose_source`).

    Raises:
        MissingDataError: a split, or every source of the embeddings, is missing.
        ReaderError: a file is cut, damaged or malformed where checked.
    """
    for split in split_names(config):
        for _ in registry.read_split(config.dataset, split, data_dir):
            break  # the first example read is the check
    choose_source(config.embeddings, data_dir)


@dataclasses.dataclass
class PreparedData:
    encoder: PairEncoder
    splits: Dict[str, EncodedSplit]
    sources: Dict[str, str]
    notes: List[str]


def text_policy(config):
    return TextPolicy(
        tokenizer=config.tokenizer,
        lowercase=config.lowercase,
        use_given_tokens=config.use_given_tokens,
    )


class _Tagging:
    """Loads the POS tagger the first time a split without shipped tags needs it."""

    def __init__(self, wanted, policy, data_dir, cache_dir, notes):
        self.wanted, self.policy = wanted, policy
        self.data_dir, self.cache_dir, self.notes = data_dir, cache_dir, notes
        self.tagger = None

    def for_split(self, examples):
        if not self.wanted or not examples or self.policy.pos_pair(examples[0])[0] is not None:
            return None
        if self.tagger is None:
            self.tagger = pos.load_tagger(self.cache_dir, self.data_dir)
            self.notes.append(f"POS tags from {self.tagger.provenance}")
        return self.tagger


def _read(config, split, data_dir, cache_dir, policy, notes, sources, tagging):
    path, _ = registry.resolve_split(config.dataset, split, data_dir)
    stats = ReadStats()
    examples = list(registry.read_split(config.dataset, split, data_dir, stats=stats))
    notes.append(stats.summary())
    sources[split] = str(path)
    tagger = tagging.for_split(examples)
    cache = None
    if cache_dir is not None and worth_caching(policy, examples, tagger):
        key = file_cache_key(path, policy.to_dict(), tagger and pos.cache_identity(tagger))
        cache = pathlib.Path(cache_dir) / "tokens" / f"{config.dataset}-{split}-{key}.json"
    label = f"{config.dataset}/{split}: tokenizing" + (" and POS-tagging" if tagger else "")
    return examples, tokenize_examples(examples, policy, cache, tagger, label=label)


def first_whole_groups(examples, limit):
    """Indices of the examples of the first questions (in order of first appearance) whose
    candidates add up to at most `limit`; at least the first question."""
    sizes = collections.Counter(ex.group for ex in examples)
    kept, total = set(), 0
    for ex in examples:
        if ex.group in kept:
            continue
        if kept and total + sizes[ex.group] > limit:
            break
        kept.add(ex.group)
        total += sizes[ex.group]
    return [i for i, ex in enumerate(examples) if ex.group in kept]


def train_pairs_subset(config, count):
    """Indices (ascending) of the pairs of a training part of `count` pairs that
    `config.train_pairs` keeps: the nested subset (`nested_subset`) drawn with the split seed,
    so it does not follow the run seed. The rows' pipeline and their floors both read it."""
    return nested_subset(count, config.train_pairs, config.split_seed)


def _take_train_pairs(config, by_role, notes):
    """Keeps the nested subset of `config.train_pairs` training pairs (`train_pairs_subset`)."""
    examples, pairs = by_role["train"]
    keep = train_pairs_subset(config, len(examples))
    by_role["train"] = ([examples[i] for i in keep], [pairs[i] for i in keep])
    notes.append(
        f"train: the nested subset of {len(keep)} of {len(examples)} pairs "
        f"(train_pairs={config.train_pairs}, split seed {config.split_seed})"
    )


class EmptySplitError(ValueError, InputError):
    """A split with no examples left to train or evaluate on; the message names the fix."""


def _empty_split_message(config, role, source_pairs):
    """Why split `role` of the (scaled) `config` is empty, and the fix; `source_pairs`: the
    pairs of its training split, which the held-out split divides."""
    if config.dev_split != "holdout" or role not in ("train", "dev"):
        return f"the {role} split of {config.dataset} has no examples"
    fix = (
        "raise --holdout_fraction or give selection pairs of their own (--dev_file; "
        "--dev_split for a registered dataset)"
        if role == "dev"
        else "lower --holdout_fraction"
    )
    return (
        f"--holdout_fraction: the {role} split of {config.dataset} has no examples left after "
        f"the held-out split ({config.holdout_fraction:g}) of its {source_pairs} training "
        f"pairs; {fix}"
    )


def _read_roles(config, read, notes):
    """(examples, pairs) of each role, and the number of training-file pairs read.

    With `dev_split="holdout"`, dev is a grouped part of the training file; otherwise each
    role reads its own split through `read`.
    """
    train_examples, train_pairs = read(config.train_split)
    by_role = {}
    if config.dev_split == "holdout":
        index = {ex.uid: pair for ex, pair in zip(train_examples, train_pairs)}
        train_part, held = group_holdout_split(
            train_examples, config.holdout_fraction, config.split_seed
        )
        by_role["train"] = (train_part, [index[e.uid] for e in train_part])
        by_role["dev"] = (held, [index[e.uid] for e in held])
        notes.append(
            f"{config.train_split}: {len(train_part)} for training, {len(held)} held out "
            f"for selection (groups of shared sentences kept together)"
        )
    else:
        by_role["train"] = (train_examples, train_pairs)
        by_role["dev"] = read(config.dev_split)
    if config.test_split is not None:  # a dataset of your own may have no test file
        by_role["test"] = read(config.test_split)
    for split in config.extra_eval_splits:
        by_role[split] = read(split)
    return by_role, len(train_examples)


def _limit(config, by_role, role, limit_n, notes):
    """Keeps the first `limit_n` examples of a role (None or 0: all), noting the cut."""
    examples, pairs = by_role[role]
    if not limit_n or len(examples) <= limit_n:
        return
    if config.task == "ranking":  # a question keeps all its candidates
        keep = first_whole_groups(examples, limit_n)
        by_role[role] = ([examples[i] for i in keep], [pairs[i] for i in keep])
        notes.append(
            f"{role}: limited to the first {len(keep)} examples (whole questions, "
            f"at most {limit_n})"
        )
        return
    by_role[role] = (examples[:limit_n], pairs[:limit_n])
    notes.append(f"{role}: limited to the first {limit_n} examples")


def prepare_data(config, data_dir, cache_dir=None, features=None, encoder=None):
    """Reads, splits, tokenizes and encodes the splits named in the (scaled) `config`.

    `features` are the optional per-token inputs (`TokenFeatures`) the model consumes; None:
    word ids only.
    Returns a PreparedData whose splits are keyed "train", "dev", "test" and any
    `extra_eval_splits`. The vocabulary comes from the training part only, unless an already
    fitted `encoder` (from a saved run) is given; a fitted one records the row's tokenization
    (`raw_text.row_tokenization`) and the unknown-token rate of every split.
    """
    features = features or TokenFeatures()
    policy = text_policy(config)
    notes, sources = [], {}
    tagging = _Tagging(features.pos, policy, data_dir, cache_dir, notes)
    read = functools.partial(
        _read,
        config,
        data_dir=data_dir,
        cache_dir=cache_dir,
        policy=policy,
        notes=notes,
        sources=sources,
        tagging=tagging,
    )
    by_role, source_pairs = _read_roles(config, read, notes)
    if config.train_pairs is not None:
        _take_train_pairs(config, by_role, notes)
    for role in by_role:
        limit_n = config.max_train_examples if role == "train" else config.max_eval_examples
        _limit(config, by_role, role, limit_n, notes)
    for role, (examples, _) in by_role.items():
        if not examples:
            raise EmptySplitError(_empty_split_message(config, role, source_pairs))

    if encoder is None:
        encoder = PairEncoder.fit(
            by_role["train"][1],
            policy,
            config.max_len_a,
            config.max_len_b,
            chars=features.chars,
            pos=features.pos,
            tagger=tagging.tagger,
            segments=features.segments,
            tokenization=raw_text.row_tokenization(registry.get_dataset(config.dataset), policy),
        )
        encoder.unknown_rates = {
            role: unknown_rate(pairs, encoder.vocab) for role, (_, pairs) in by_role.items()
        }
    splits = {}
    for role in list(by_role):
        # Each split's examples and tokens are let go once it is encoded: the run reads its
        # ids, labels, uids and groups only.
        examples, pairs = by_role.pop(role)
        notes.extend(encoder.length_notes(role, pairs))
        splits[role] = encoder.encode(role, examples, pairs)
        del examples, pairs
    return PreparedData(encoder, splits, sources, notes)
