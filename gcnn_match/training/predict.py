"""Use a trained run on new sentence pairs: its own tokenizer, vocabulary and weights.

A run directory (or an exported folder) carries everything needed: `config.json`,
`dataset.json` (the labels, and how the dataset's files are read), `preprocessing/` (text
policy, vocabularies, cut-offs), `model_inputs.json` and the selected weights.
`TrainedModel.load` reads either in one call; `TrainedModel.export` writes a self-contained
folder with the `.keras` model and a TensorFlow SavedModel whose signatures load without
gcnn_match (`gcnn_match.training.serving`).
"""

import json
import pathlib
import re
import shutil
import zipfile

import keras
import numpy as np

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.data import registry as data_registry
from gcnn_match.data.example import Example
from gcnn_match.data.own_data import HEADERS, input_layout
from gcnn_match.data.own_data_reader import read_pairs
from gcnn_match.data.pipeline import PairEncoder, tokenize_examples
from gcnn_match.data.reading import ReadStats
from gcnn_match.files import read_json, write_text_atomic
from gcnn_match.models.registry import ModelInputs, build_model, import_all
from gcnn_match.training import raw_input, serving
from gcnn_match.training.run_dir import RunDirectory
from gcnn_match.training.tasks import model_outputs, predict_split, task_for


def _check_vocabulary_sizes(folder, encoder, shapes, source):
    """The run's vocabularies must have the sizes its weights were built for."""
    for name, vocab, size in (
        ("vocab.txt", encoder.vocab, shapes["vocab_size"]),
        ("char_vocab.txt", encoder.char_vocab, shapes.get("char_vocab_size")),
    ):
        entries = None if vocab is None else len(vocab)
        if entries != size:
            raise ValueError(
                f"{folder / name}: {entries} entries, but the weights were trained "
                f"with {size} ({source}); this preprocessing folder belongs to "
                "another run: restore the run's own, or retrain"
            )


def _first_mismatch(error):
    """The layer and the shapes from Keras' message, which goes on to print every value."""
    text = str(error)
    layer = re.search(r"object <\w+ name=(\w+)", text)
    shapes = re.search(r"variable\.shape=\(.*?\), Received: value\.shape=\(.*?\)", text)
    if layer and shapes:
        return f"{layer.group(1)}: {shapes.group(0)}"
    return text.splitlines()[0]


def _lambda_layers(node):
    """The names of the Lambda layers in (a part of) a saved model's config."""
    if isinstance(node, dict):
        if node.get("class_name") == "Lambda":
            yield node.get("config", {}).get("name", "?")
        for value in node.values():
            yield from _lambda_layers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _lambda_layers(value)


def _refuse_code_layers(path):
    """Stops before loading a `.keras` file with a Lambda layer, whose function rebuilding the
    model would run: no model here has one, so the file was replaced. Keras' safe mode refuses
    it as well, in a message about deserialization (or, for a named function, a search for
    it), which says nothing of the export."""
    if not zipfile.is_zipfile(path):
        return  # not a .keras archive: loading it says why
    with zipfile.ZipFile(path) as archive:
        config = json.loads(archive.read("config.json"))
    names = list(_lambda_layers(config))
    if names:
        raise ValueError(
            f"{path}: layer {names[0]!r} is a Lambda layer, which would run code when loaded; "
            "refused (Keras safe_mode). This project's models have none: export the run "
            "again from its run directory"
        )


def _run_dataset(run, config):
    """The run's record of its dataset; a run trained before runs kept one (no dataset.json)
    was on a registered dataset, which the registry describes."""
    recorded = read_json(run / "dataset.json")
    if recorded is None:
        return data_registry.get_dataset(config.dataset)
    return data_registry.DatasetSpec.from_dict(recorded)


class TrainedModel:
    """A trained model with its preprocessing, loaded from a run or an export.

    Args:
        model: the Keras model (logits, or one score per pair for a ranking run).
        encoder: the run's `PairEncoder`.
        dataset: the `DatasetSpec` the run trained on (its labels: class names, index = class
            id); known to this process from then on (`registry.adopt_dataset`), so that its
            splits can be read by name, also when it is a dataset of your own.
        config: the run's ExperimentConfig.

    `notes` holds the counted handling of the last pairs read (texts over the cut-off, texts
    without tokens; `PairEncoder.length_notes`). Loading checks that the vocabularies are the
    ones the weights were trained with, and stops with the file to restore otherwise.
    """

    def __init__(self, model, encoder, dataset, config):
        self.model = model
        self.encoder = encoder
        self.dataset = dataset
        self.config = config
        self.notes = []
        data_registry.adopt_dataset(dataset)

    @property
    def labels(self):
        """Class names, index = class id."""
        return self.dataset.labels

    @classmethod
    def load(cls, path):
        """The trained model of a run directory or of an export, whichever `path` is.

        Example:

            model = TrainedModel.load("runs/gcnn/quora/gcnn/low-resource-seed1")  # or an export
            model.predict_pairs([("How do I learn Python?", "How can I learn Python fast?")])
            # (1, classes) float32: one row per pair, its columns in the order of model.labels
        """
        path = pathlib.Path(path)
        return cls.from_export(path) if (path / "export.json").is_file() else cls.from_run(path)

    @classmethod
    def from_run(cls, run_dir):
        run = RunDirectory(run_dir)
        if not run.best_weights.exists():
            raise FileNotFoundError(
                f"{run.best_weights} not found: {run.path} is not a trained "
                "run directory (train it with experiments/train.py)"
            )
        config = ExperimentConfig.from_dict(read_json(run / "config.json"))
        shapes = read_json(run / "model_inputs.json")
        encoder = PairEncoder.load(run / "preprocessing")
        _check_vocabulary_sizes(run / "preprocessing", encoder, shapes, run / "model_inputs.json")
        model = build_model(config.model, ModelInputs(**shapes), **config.model_kwargs)
        try:
            model.load_weights(run.best_weights)
        except ValueError as error:
            raise ValueError(
                f"{run.best_weights} does not fit the model that config.json and "
                f"model_inputs.json describe ({_first_mismatch(error)}); the files "
                "come from different runs: restore the run's own files, or "
                "retrain"
            ) from None
        return cls(model, encoder, _run_dataset(run, config), config)

    @classmethod
    def from_export(cls, export_dir):
        export_dir = pathlib.Path(export_dir)
        if not (export_dir / "export.json").is_file():
            raise FileNotFoundError(
                f"{export_dir / 'export.json'} not found: {export_dir} is not an export "
                "(write one with predict.py --run_dir=RUN --export_dir=DIR)"
            )
        meta = json.loads((export_dir / "export.json").read_text("utf-8"))
        _refuse_code_layers(export_dir / "model.keras")
        import_all()
        # Safe mode refuses a file that would run code (e.g. a Lambda layer's bytecode).
        model = keras.models.load_model(export_dir / "model.keras", safe_mode=True)
        encoder = PairEncoder.load(export_dir / "preprocessing")
        if "vocab_fingerprint" in meta and encoder.vocab.fingerprint() != meta["vocab_fingerprint"]:
            raise ValueError(
                f"{export_dir / 'preprocessing' / 'vocab.txt'} is not the "
                f"vocabulary model.keras was exported with ({len(encoder.vocab)} "
                f"entries, fingerprint {encoder.vocab.fingerprint()}; export.json: "
                f"{meta['vocab_size']}, {meta['vocab_fingerprint']}); export the "
                "run again"
            )
        dataset = data_registry.DatasetSpec.from_dict(meta["dataset"])
        return cls(model, encoder, dataset, ExperimentConfig.from_dict(meta["config"]))

    def export(self, export_dir, saved_model=True):
        """Writes model.keras + preprocessing/ + export.json into `export_dir`, and with
        `saved_model` the TensorFlow SavedModel saved_model/ (`serving.write_saved_model`,
        recorded in export.json), which takes seconds more."""
        export_dir = pathlib.Path(export_dir)
        export_dir.mkdir(parents=True, exist_ok=True)
        self.model.save(export_dir / "model.keras")
        self.encoder.save(export_dir / "preprocessing")
        record = None
        shutil.rmtree(export_dir / "saved_model", ignore_errors=True)  # another model's
        if saved_model:
            record = serving.write_saved_model(self, export_dir / "saved_model")
        write_text_atomic(
            export_dir / "export.json",
            json.dumps(
                {
                    "dataset": self.dataset.to_dict(),
                    "config": self.config.to_dict(),
                    "vocab_size": len(self.encoder.vocab),
                    "vocab_fingerprint": self.encoder.vocab.fingerprint(),
                    "saved_model": record,
                },
                indent=2,
            ),
        )
        return export_dir

    def _encode(self, examples):
        pairs = tokenize_examples(examples, self.encoder.policy, tagger=self.encoder.tagger)
        self.notes = self.encoder.length_notes("input", pairs)
        return self.encoder.encode("predict", examples, pairs)

    def _require_task(self, task):
        if self.config.task != task:
            method = "score_examples" if task == "classification" else "predict_examples"
            raise ValueError(
                f"{self.config.name} is a {self.config.task} run: {method} gives its outputs"
            )

    def predict_examples(self, examples, batch_size=None):
        """Class probabilities (N, classes) for `Example`s, in their order; batches of the
        run's evaluation batch size unless `batch_size` is given."""
        self._require_task("classification")
        examples = list(examples)
        if not examples:
            return np.zeros((0, len(self.labels)), np.float32)
        return predict_split(
            self.model,
            self._encode(examples),
            self.encoder,
            batch_size or self.config.eval_batch_size,
            self.config.bucket_width,
            self.config.padding,
        )

    def score_examples(self, examples, batch_size=None):
        """Ranking scores (N,) of a ranking run for `Example`s (a = question, b = candidate):
        the higher, the better the candidate answers its question."""
        self._require_task("ranking")
        examples = list(examples)
        if not examples:
            return np.zeros(0, np.float32)
        return model_outputs(
            self.model,
            self._encode(examples),
            self.encoder,
            batch_size or self.config.eval_batch_size,
            self.config.bucket_width,
            self.config.padding,
        )[:, 0]

    def evaluate_examples(self, examples, source=None):
        """The run's task metrics on labelled `Example`s, as its metrics.json reports them
        (ranking: candidates grouped by `Example.group`); with `source`, the (path, FileSpec)
        the examples were read from, also the dataset's official scorer (e.g. FEVER)."""
        task = task_for(self.config)
        split = self._encode(list(examples))
        outputs, metrics = task.evaluate(self.model, split, self.encoder)
        if source is not None:
            metrics.update(task.official_scores(source, split, outputs).metrics)
        return metrics

    def evaluate_split(self, split, data_dir):
        """`evaluate_examples` on a registered split of the run's dataset, official scorer
        included."""
        name = self.config.dataset
        examples = data_registry.read_split(name, split, data_dir)
        return self.evaluate_examples(examples, data_registry.resolve_split(name, split, data_dir))

    def read_file(self, path, given=None, header="auto", labelled=False, log=print):
        """The pairs of a file given by hand ("-": standard input), read as
        `own_data.input_layout` says for the run's dataset and `given` (the format and
        columns set on the command line). header "auto": the first line is a header when it
        holds the column names or its label field is not one of the run's labels; the
        decision is logged, also when the read then fails. `labelled`: read the labels too."""
        layout = input_layout(self.dataset, given or {})
        stats = ReadStats()
        reader = read_pairs(
            path,
            layout.pop("fmt"),
            **layout,
            labels=self.dataset.input_labels(),
            header=HEADERS[header],
            unlabelled=not labelled,
            stats=stats,
        )
        examples = []
        try:
            examples.extend(reader)
        finally:
            if stats.header:
                log(f"{path}: {stats.header} (--header=yes or --header=no decides otherwise)")
        return examples

    def predict_pairs(self, pairs, batch_size=None, raw_text=True):
        """Class probabilities (N, classes) for `(text_a, text_b)` pairs as typed, rewritten
        into the tokenization of the run's training text (`raw_input.rewrite_examples`), then
        tokenized as the run was (`predict_examples`); columns in the order of `labels`.
        `raw_text` False reads them as already tokenized that way.

        Example:

            TrainedModel.load(path).predict_pairs([("What is AI?", "What is an AI?")])
        """
        examples = [Example(a=a, b=b, label=None, uid=str(i)) for i, (a, b) in enumerate(pairs)]
        if raw_text:
            name = raw_input.run_tokenization(self.encoder, self.dataset)
            examples = raw_input.rewrite_examples(examples, name)
        return self.predict_examples(examples, batch_size)
