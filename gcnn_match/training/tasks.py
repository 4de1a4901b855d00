"""What depends on a run's task: the loss, how training batches are formed, what the model's
outputs mean, the metrics and the prediction files. The training loop (`training/loop.py`) is
the same for every task and asks `task_for(config)`.

- "classification": softmax cross-entropy over the dataset's labels; batches of `batch_size`
  pairs; accuracy (and F1 of the positive class of a two-class dataset); predictions with
  class probabilities, and a Kaggle submission for an unlabelled split; for FEVER contexts,
  the official scorer's ALL / SUB and each claim's evidence term of SUB
  (`<role>_official.tsv`).
- "ranking" (answer selection; C-LSTMs §4.5 and §5): the model outputs one score per
  (question, candidate) pair (`head="score"`); the max-margin loss over each question's
  candidates (margin `ranking_margin`); batches of `batch_size` whole questions; P@1, MAP and
  MRR over the questions with a correct and an incorrect candidate (the filtered WikiQA
  evaluation, `metrics.ranking_metrics`); predictions with scores and ranks.
"""

import keras
import numpy as np

from gcnn_match.data import registry as data_registry
from gcnn_match.data.pipeline import evaluation_dataset, training_dataset, unsort
from gcnn_match.files import write_atomic
from gcnn_match.training.epoch_progress import PredictProgress
from gcnn_match.training.fever_score import OfficialScores, score_contexts_file
from gcnn_match.training.metrics import classification_metrics, ranking_metrics
from gcnn_match.training.ranking import (
    MaxMarginRankingLoss,
    group_index,
    rankable,
    ranking_targets,
)


def model_outputs(model, encoded, encoder, batch_size, bucket_width, padding="bucket", multiple=1):
    """The model's outputs (logits or scores), one row per example, in file order.

    `multiple`: batches are evened to a multiple of this many pairs (data-parallel replicas).
    """
    ds, order = evaluation_dataset(
        encoded,
        batch_size,
        encoder.feature_names(),
        {"a": encoder.max_len_a, "b": encoder.max_len_b},
        bucket_width,
        padding,
        multiple,
    )
    progress = PredictProgress(len(order))
    outputs = model.predict(ds, verbose=0, callbacks=[progress])
    return unsort(keras.ops.convert_to_numpy(outputs), order)


def predict_split(model, encoded, encoder, batch_size, bucket_width, padding="bucket", multiple=1):
    """Class probabilities in file order."""
    logits = model_outputs(model, encoded, encoder, batch_size, bucket_width, padding, multiple)
    return keras.ops.convert_to_numpy(keras.ops.softmax(logits, axis=-1))


def write_predictions(path, encoded, probabilities, labels):
    rows = ["uid\tgold\tpredicted\t" + "\t".join(f"p_{name}" for name in labels)]
    for uid, gold, probs in zip(encoded.uids, encoded.labels, probabilities):
        gold_name = labels[gold] if gold >= 0 else ""
        rows.append(
            "\t".join([uid, gold_name, labels[int(np.argmax(probs))]] + [f"{p:.6f}" for p in probs])
        )
    write_atomic(path, ("\n".join(rows) + "\n").encode("utf-8"))


def write_official_units(path, uids, units):
    """Writes the per-example terms of an official scorer's metrics, one line per example:
    `uid` and a column each; nothing when there are none.

    Args:
        path: the file to write (`predictions/<role>_official.tsv`).
        uids: the split's example ids, in its order.
        units: `OfficialScores.units`, {column: one value per example in `uids` order}.
    """
    if not units:
        return
    rows = ["\t".join(["uid", *units])] + [
        "\t".join([uid, *(f"{value:.9g}" for value in values)])
        for uid, *values in zip(uids, *units.values(), strict=True)
    ]
    write_atomic(path, ("\n".join(rows) + "\n").encode("utf-8"))


def write_submission(path, encoded, probabilities, labels):
    """Predictions of an unlabelled split in the Kaggle NLI layout: `pairID,gold_label`."""
    rows = ["pairID,gold_label"] + [
        f"{uid},{labels[int(np.argmax(p))]}" for uid, p in zip(encoded.uids, probabilities)
    ]
    write_atomic(path, ("\n".join(rows) + "\n").encode("utf-8"))


def ranks_within_groups(group_ids, scores):
    """1-based rank of each candidate in its question by descending score (ties: file order)."""
    _, inverse = np.unique(np.asarray(group_ids), return_inverse=True)
    order = np.lexsort((np.arange(len(inverse)), -np.asarray(scores), inverse))
    starts = np.flatnonzero(np.r_[True, inverse[order][1:] != inverse[order][:-1]])
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    return ranks + 1


def write_ranking_predictions(path, encoded, scores, labels):
    """uid, question, gold label name, score (float32 exactly: 9 significant digits), rank."""
    ranks = ranks_within_groups(encoded.groups, scores)
    rows = ["uid\tquestion\tgold\tscore\trank"]
    for uid, group, gold, score, rank in zip(
        encoded.uids, encoded.groups, encoded.labels, scores, ranks
    ):
        rows.append(f"{uid}\t{group}\t{labels[gold] if gold >= 0 else ''}\t{score:.9g}\t{rank}")
    write_atomic(path, ("\n".join(rows) + "\n").encode("utf-8"))


class Task:
    """The task-specific side of a run; subclasses say how.

    Args:
        config: the run's (scaled) ExperimentConfig.
        replicas: data-parallel replicas; every batch is evened to a multiple of this many
            pairs (see `gcnn_match.training.distribution`).
    """

    def __init__(self, config, replicas=1):
        self.config = config
        self.replicas = replicas
        self.dataset = data_registry.get_dataset(config.dataset)

    def compile_args(self):
        """`loss` and `metrics` for `model.compile`."""
        raise NotImplementedError

    def check_model(self, model):
        """Raises when the model's outputs do not fit the task."""

    def data_notes(self, splits):
        """Notes on the encoded splits for the run's records; raises on unusable data."""
        return []

    def training_inputs(self, split):
        """Extra `training_dataset` arguments (group ids, targets)."""
        return {}

    def examples_per_epoch(self, split):
        """Pairs one training epoch goes through (for throughput)."""
        return len(split)

    def training_dataset(self, split, encoder, first_epoch, epochs, first_step=0):
        """(dataset, steps per epoch) of epochs [first_epoch, epochs), without the first
        `first_step` batches of the first (a resume inside it)."""
        c = self.config
        return training_dataset(
            split,
            c.batch_size,
            encoder.feature_names(),
            {"a": c.max_len_a, "b": c.max_len_b},
            c.seed,
            first_epoch,
            epochs,
            c.bucket_width,
            c.padding,
            multiple=self.replicas,
            first_step=first_step,
            **self.training_inputs(split),
        )

    def evaluate(self, model, split, encoder):
        """(outputs in file order, metrics dict; empty for an unlabelled split)."""
        raise NotImplementedError

    def write_predictions(self, folder, role, split, outputs):
        raise NotImplementedError

    def official_scores(self, source, split, outputs):
        """`OfficialScores` of the dataset's own scorer over `split`, read from `source` (the
        `registry.resolve_split` result of its file), where one exists; else empty."""
        return OfficialScores()


class ClassificationTask(Task):
    """Labels from softmax logits (B, classes); cross-entropy; accuracy and F1."""

    def compile_args(self):
        return {
            "loss": keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            "metrics": ["accuracy"],
        }

    def evaluate(self, model, split, encoder):
        c = self.config
        probabilities = predict_split(
            model, split, encoder, c.eval_batch_size, c.bucket_width, c.padding, self.replicas
        )
        positive = self.dataset.positive_label if len(self.dataset.labels) == 2 else None
        return probabilities, classification_metrics(split.labels, probabilities, positive)

    def write_predictions(self, folder, role, split, outputs):
        write_predictions(folder / f"{role}.tsv", split, outputs, self.dataset.labels)
        if not (split.labels >= 0).any():  # e.g. MultiNLI test: scored on Kaggle, never by us
            write_submission(folder / f"{role}_submission.csv", split, outputs, self.dataset.labels)

    def official_scores(self, source, split, outputs):
        """FEVER contexts: the official scorer's label accuracy (ALL) and FEVER score (SUB),
        with each claim's context as its predicted evidence, and each claim's evidence term of
        SUB (`training/fever_score.py`)."""
        path, file_spec = source
        if file_spec.format != "fever_contexts":
            return OfficialScores()
        return score_contexts_file(path, split.uids, outputs, self.dataset.labels)


class RankingTask(Task):
    """Scores (B, 1) of (question, candidate) pairs; max-margin loss; P@1, MAP and MRR."""

    def __init__(self, config, replicas=1):
        if replicas > 1:
            raise ValueError(
                f"{config.name}: the ranking loss compares the candidates of a question, which "
                "data-parallel replicas would split between them; use distribution=none"
            )
        super().__init__(config, replicas)

    def compile_args(self):
        return {"loss": MaxMarginRankingLoss(self.config.ranking_margin), "metrics": []}

    def check_model(self, model):
        width = model.outputs[0].shape[-1]
        if width != 1:
            raise ValueError(
                f"{self.config.name}: a ranking run needs one score per pair, but model "
                f"{self.config.model!r} outputs {width} values; set model_kwargs head='score'"
            )

    def _require_questions(self, split):
        missing = sum(group is None for group in split.groups)
        if missing:
            raise ValueError(
                f"{self.config.dataset} {split.name}: {missing} of {len(split)} candidates have "
                "no question (Example.group); ranking needs a candidate-set reader, or the "
                "question column of a pairs file (evaluate.py --group)"
            )

    def data_notes(self, splits):
        for split in splits.values():
            self._require_questions(split)
        train = splits["train"]
        groups = group_index(train.groups)
        trained = np.unique(groups[rankable(groups, train.labels)])
        if not len(trained):
            raise ValueError(
                f"{self.config.dataset} {self.config.train_split}: no question has "
                "a correct and an incorrect candidate; nothing to train on"
            )
        total = len(np.unique(groups))
        return [
            f"train: {len(trained)} of {total} questions have a correct and an incorrect "
            f"candidate and form the training batches; the other {total - len(trained)} "
            "add nothing to the max-margin loss"
        ]

    def examples_per_epoch(self, split):
        return int(rankable(group_index(split.groups), split.labels).sum())

    def training_inputs(self, split):
        groups = group_index(split.groups)
        return {
            "group_ids": np.where(rankable(groups, split.labels), groups, -1),
            "targets": ranking_targets(split.labels, groups),
        }

    def evaluate(self, model, split, encoder):
        self._require_questions(split)
        c = self.config
        scores = model_outputs(
            model, split, encoder, c.eval_batch_size, c.bucket_width, c.padding, self.replicas
        )[:, 0]
        if not (split.labels >= 0).any():
            return scores, {}
        try:
            return scores, ranking_metrics(split.groups, scores, split.labels)
        except ValueError as error:
            raise ValueError(f"{self.config.dataset} {split.name}: {error}") from None

    def write_predictions(self, folder, role, split, outputs):
        write_ranking_predictions(folder / f"{role}.tsv", split, outputs, self.dataset.labels)


TASKS = {"classification": ClassificationTask, "ranking": RankingTask}


def task_for(config, replicas=1):
    """The Task object of `config.task` (`replicas`: see `Task`)."""
    return TASKS[config.task](config, replicas)
