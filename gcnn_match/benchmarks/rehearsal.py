"""The full protocol at its real size on synthetic text: split files in each dataset's official
layout and a vectors file, and one row's run on them stopped after its first training steps.

`write_data(folder, size, seed)` writes Quora's BiMPM partition (`label<TAB>q1<TAB>q2<TAB>id`),
SNLI's jsonl (sentences, their parse trees, gold labels; a few lines without a majority label)
and a GloVe text file under `folder`, at the sizes of `SIZES[size]`: "real" is the size of the
official files, "tiny" a few hundred pairs for the test suite. Every word of the vocabulary
occurs in the training split and has a vector; the vectors file holds as many words again that
no split uses, a few of them with spaces (as glove.840B.300d has).

`rehearse_row(config, ...)` runs `run_experiment` on those files through the normal
`data_dir` and embeddings paths, in a fresh process (`worker.run_worker`), and stops the epoch
after its first `steps` training steps; the rest of the run (the epoch's dev evaluation and
checkpoint, the final evaluation) goes on as in a real one.
"""

import dataclasses
import json
import pathlib
import resource
import time

import numpy as np

from gcnn_match.benchmarks.dataset_shapes import ENGLISH_VOCABULARY, dataset_shape

# SNLI's lines without an annotator majority ("-"): 785 of its 550,152 training lines.
NO_MAJORITY = 785 / 550_152
NLI_LABELS = ("entailment", "neutral", "contradiction")


@dataclasses.dataclass(frozen=True)
class Size:
    """Lines per split of each dataset, the vocabulary, and the vectors' width and name."""

    quora: tuple  # (train, dev, test) pairs
    snli: tuple  # (train, dev, test) jsonl lines, the "-" ones included
    quora_words: int
    snli_words: int
    vector_dim: int
    vectors: str  # the embedding source the files are named for (gcnn_match.data.embeddings)


SIZES = {
    # Quora: the BiMPM partition and its training vocabulary; SNLI: snli_1.0's line counts,
    # its vocabulary the allowance of dataset_shapes.
    "real": Size(
        (384_348, 10_000, 10_000),
        (550_152, 10_000, 10_000),
        114_838,
        ENGLISH_VOCABULARY,
        300,
        "glove.840B.300d",
    ),
    "tiny": Size((300, 60, 60), (300, 60, 60), 400, 400, 50, "glove.6B.50d"),
}


def _words(count, prefix):
    """`count` distinct lower-case words, `prefix` first."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    out = []
    for i in range(count):
        digits = []
        while True:
            i, r = divmod(i, 26)
            digits.append(letters[r])
            if not i:
                break
        out.append(prefix + "".join(digits))
    return out


def _sentences(rng, words, count, mean, cover=False):
    """`count` sentences of about `mean` tokens (at least 2), Zipf-distributed words; with
    `cover` every word occurs at least once."""
    lengths = np.maximum(2, rng.poisson(mean, count))
    ids = (rng.zipf(1.2, lengths.sum()) - 1) % len(words)
    if cover:
        ids[rng.permutation(len(ids))[: len(words)]] = np.arange(len(words))
    cuts = np.cumsum(lengths)[:-1]
    return [[words[i] for i in part] for part in np.split(ids, cuts)]


def _quora_split(path, rng, words, count, cover):
    mean_a, mean_b = dataset_shape("quora").mean_tokens
    a = _sentences(rng, words, count, mean_a, cover)
    b = _sentences(rng, words, count, mean_b)
    labels = rng.integers(0, 2, count)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(count):
            out.write(f"{labels[i]}\t{' '.join(a[i])}\t{' '.join(b[i])}\t{i + 1}\n")


def _parse(tokens):
    return "(ROOT (S " + " ".join(f"(NN {t})" for t in tokens) + " (. .)))"


def _snli_split(path, rng, words, count, cover):
    mean_a, mean_b = dataset_shape("snli").mean_tokens
    a = _sentences(rng, words, count, mean_a, cover)
    b = _sentences(rng, words, count, mean_b)
    labels = rng.integers(0, len(NLI_LABELS), count)
    no_majority = rng.random(count) < NO_MAJORITY
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(count):
            line = {
                "gold_label": "-" if no_majority[i] else NLI_LABELS[labels[i]],
                "pairID": f"{i}r",
                "sentence1": " ".join(a[i]) + " .",
                "sentence1_binary_parse": "( " + " ".join(a[i]) + " . )",
                "sentence1_parse": _parse(a[i]),
                "sentence2": " ".join(b[i]) + " .",
                "sentence2_binary_parse": "( " + " ".join(b[i]) + " . )",
                "sentence2_parse": _parse(b[i]),
            }
            out.write(json.dumps(line) + "\n")


def _vectors(path, rng, words, dim, chunk=10_000):
    """GloVe text: `word v1 ... v<dim>` per line; the extra words, a few with spaces."""
    extra = _words(len(words), "x")
    extra[::1000] = [f"{w} {w}" for w in extra[::1000]]
    names = words + extra
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        for start in range(0, len(names), chunk):
            values = rng.normal(0, 0.3, (min(chunk, len(names) - start), dim))
            rows = [" ".join(f"{v:.4f}" for v in row) for row in values]
            out.writelines(
                f"{name} {row}\n" for name, row in zip(names[start : start + chunk], rows)
            )


def write_data(folder, size="real", seed=0):
    """Writes the synthetic splits and vectors of `SIZES[size]` under `folder` (a data_dir);
    returns {file (relative to `folder`): bytes}."""
    folder, spec, rng = pathlib.Path(folder), SIZES[size], np.random.default_rng(seed)
    quora_words, snli_words = _words(spec.quora_words, "q"), _words(spec.snli_words, "s")
    for split, count in zip(("train", "dev", "test"), spec.quora):
        path = folder / "quora" / "Quora_question_pair_partition" / f"{split}.tsv"
        _quora_split(path, rng, quora_words, count, cover=split == "train")
    for split, count in zip(("train", "dev", "test"), spec.snli):
        path = folder / "snli" / "snli_1.0" / f"snli_1.0_{split}.jsonl"
        _snli_split(path, rng, snli_words, count, cover=split == "train")
    vocab = list(dict.fromkeys(quora_words + snli_words + ["."]))
    _vectors(folder / "embeddings" / f"{spec.vectors}.txt", rng, vocab, spec.vector_dim)
    return {
        str(p.relative_to(folder)): p.stat().st_size
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def first_steps_callback(steps, since):
    """A Keras callback that notes the seconds since `since` (a `time.time()`) at the end of
    the first training step and of the `steps`-th, and then ends the epoch; and the process'
    peak resident bytes at the end of the first step (`first_step_peak_rss`)."""
    import keras

    class FirstSteps(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.done, self.first_step_seconds, self.steps_seconds = 0, None, None
            self.first_step_peak_rss = None

        def on_train_batch_end(self, batch, logs=None):
            self.done += 1
            if self.done == 1:
                self.first_step_seconds = time.time() - since
                self.first_step_peak_rss = _peak_rss_bytes()
            if self.done == steps:
                self.steps_seconds = time.time() - since
                self.model.stop_training = True

    return FirstSteps()


def _peak_rss_bytes():
    """The process' peak resident memory so far (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _folder_bytes(folder):
    return sum(p.stat().st_size for p in pathlib.Path(folder).rglob("*") if p.is_file())


def pipeline_rate(config, data_dir, cache_dir, warmup_batches=10, max_batches=400):
    """The run's host pipeline (`task.training_dataset`: the schedule, padding and bucketing)
    on its own, no model, on the splits as `prepare_data` encodes them (from the run's warm
    cache): the seconds until its first `warmup_batches` batches are out (the epoch's
    schedule, tracing the batch function), then the training pairs per second of the next
    `max_batches`, the rate a model is fed at."""
    from gcnn_match.data.experiment_data import apply_scale, prepare_data
    from gcnn_match.models.registry import input_features
    from gcnn_match.training.tasks import task_for

    config = apply_scale(config)
    data = prepare_data(
        config, data_dir, cache_dir, input_features(config.model, **config.model_kwargs)
    )
    dataset, steps = task_for(config).training_dataset(data.splits["train"], data.encoder, 0, 1)
    warmup_batches = min(warmup_batches, steps // 2)  # a small split: half its one epoch
    batches = dataset.take(warmup_batches + max_batches).as_numpy_iterator()
    start = time.perf_counter()
    for _ in range(warmup_batches):
        next(batches)
    warm, pairs, measured = time.perf_counter(), 0, 0
    for _, labels in batches:
        pairs, measured = pairs + len(labels), measured + 1
    return {
        "pipeline_warmup_batches": warmup_batches,
        "pipeline_warmup_seconds": warm - start,
        "pipeline_batches": measured,
        "pipeline_pairs_per_second": pairs / (time.perf_counter() - warm),
    }


def rehearse_row(config, data_dir, cache_dir, run_dir, steps=10, launched=None):
    """One row's run on `data_dir`, its one epoch stopped after `steps` training steps, in this
    process (a fresh one: the peak resident memory is the process').

    Returns the seconds from `launched` (the `time.time()` at which the process was started;
    default: now) until the data were prepared, the model was built, the first and the
    `steps`-th step ended and the run ended; the run's seconds per step (`StepTimer`), its
    peak resident memory (before the pipeline is measured), its checkpoints' bytes, its
    vocabulary and examples, and `pipeline_rate`.
    """
    import keras

    from gcnn_match.training.loop import run_experiment

    launched = time.time() if launched is None else launched
    marks, rates = {}, []

    def log(line):
        if line.startswith("embeddings:"):
            marks["data_ready_seconds"] = time.time() - launched
        elif "trainable parameters" in line:
            marks["model_built_seconds"] = time.time() - launched

    first = first_steps_callback(steps, launched)
    metrics = run_experiment(
        config.replace(epochs=1),
        run_dir,
        data_dir,
        cache_dir,
        resume=False,
        log=log,
        on_throughput=lambda seconds, _: rates.append(seconds),
        callbacks=[first],
    )
    run_seconds = time.time() - launched
    peak_rss = _peak_rss_bytes()
    inputs = json.loads((pathlib.Path(run_dir) / "model_inputs.json").read_text("utf-8"))
    return {
        "name": config.name,
        "backend": keras.backend.backend(),
        **marks,
        "first_step_seconds": first.first_step_seconds,
        "steps": first.done,
        "steps_seconds": first.steps_seconds,
        "seconds_per_step": rates[0] if rates else None,
        "run_seconds": run_seconds,
        "first_step_peak_rss_bytes": first.first_step_peak_rss,
        "peak_rss_bytes": peak_rss,
        "checkpoint_bytes": _folder_bytes(pathlib.Path(run_dir) / "checkpoints"),
        "vocab_size": inputs["vocab_size"],
        "examples": metrics["examples"],
        "trainable_params": metrics["trainable_params"],
        **pipeline_rate(config, data_dir, cache_dir),
    }
