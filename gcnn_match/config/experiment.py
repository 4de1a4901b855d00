"""The complete, resolved description of one experiment (one table row, one seed, one scale).

A registered experiment returns an `ExperimentConfig`; command-line flags override fields; the
resolved config is written into the run directory so every number traces back to its settings.
"""

import dataclasses
import json
from typing import Any, Dict, Optional, Tuple

SCALES = ("full", "low-resource", "smoke")
DISTRIBUTIONS = ("none", "mirrored", "multi_worker", "keras")
TASKS = ("classification", "ranking")
RANKING_METRICS = ("p@1", "map", "mrr")
# Fields that change how a run is kept, never its numbers: they do not name its run directory
# (`overrides.default_run_dir`) and a resumed run may change them (`training/loop.py`).
RESULT_NEUTRAL_FIELDS = ("checkpoint_every_minutes",)
# Fields that say where a row is printed and what its paper reports, never what a run computes:
# rows of two tables that differ only in these (and `RESULT_NEUTRAL_FIELDS`) share their runs.
DESCRIPTIVE_FIELDS = (
    "name",
    "paper",
    "table",
    "row",
    "targets",
    "target_notes",
    "compare",
    "table_key",
)


@dataclasses.dataclass(frozen=True)
class OptimizerConfig:
    """Optimizer as the paper used it.

    Args:
        name: "adam", "adagrad" or "sgd".
        learning_rate: initial learning rate.
        global_clipnorm: clip gradients by their global norm (None: no clipping).
        epsilon: numerical epsilon (AdaGrad's faithful value differs from Keras' default).
        initial_accumulator_value: AdaGrad's starting accumulator.
        decay: learning-rate schedule: None, or "exponential:<rate>:<examples_per_step>",
            e.g. COIN/RE2's "exponential:0.95:128000" (rate applied every that many examples).
        plateau_halving: ESIM's schedule: halve the rate and restore the best weights whenever
            dev accuracy does not improve; stop after this many halvings (0 disables it).
    """

    name: str = "adam"
    learning_rate: float = 4e-4
    global_clipnorm: Optional[float] = None
    epsilon: Optional[float] = None
    initial_accumulator_value: Optional[float] = None
    decay: Optional[str] = None
    plateau_halving: int = 0


@dataclasses.dataclass(frozen=True)
class ExperimentConfig:
    """Everything that determines a run.

    Args:
        name: registry key, e.g. "gcnn/quora/gcnn".
        paper, table, row: where the target number is printed ("GCNN", "Table 2", "GCNN").
        dataset: dataset registry name.
        model: model registry name; `model_kwargs` are passed to its builder.
        task: "classification" (cross-entropy over the labels; accuracy, F1) or "ranking"
            (answer selection: a scalar score per candidate, the max-margin loss over each
            question's candidates, P@1 / MAP / MRR; see `gcnn_match.training.tasks`). In
            ranking, `batch_size` counts questions, each with all its candidates.
        ranking_margin: the margin m of the max-margin ranking loss; the C-LSTM paper does
            not state it [U→S 1.0, docs/clstm.md#output-layers].
        text: tokenizer name, lowercase, and whether to use tokens shipped with the data.
        max_len_a, max_len_b: hard cut-offs (truncate the end, keep the first tokens).
        embeddings: embeddings source (see gcnn_match.data.embeddings), or several separated by
            "|" tried in order (the paper's vectors first, then an offline stand-in); then
            `embeddings_trainable` and the OOV initialisation. `embedding_dim` is the width
            of "random" vectors when `embedding_width` is not set.
        embedding_width: the width of the word vectors the model reads; None: the vectors'
            own. Narrower vectors (the 50-d stand-in for the papers' 300-d) get extra columns
            drawn by the OOV policy (`oov_init`, `oov_scale`; zeros for COIN's fixed
            vectors), trained or fixed with the vectors, so every layer has the paper's
            shape and parameter count. Rows register their paper's width
            (docs/design.md#offline-data-and-vectors).
        trainable_padding: with fixed vectors (`embeddings_trainable=False`), draw those extra
            columns N(0, oov_scale²) and train them while the vectors' own columns stay fixed:
            the padding a model with fine-tuned vectors trains, without touching the fixed
            vectors. False: the columns follow the OOV policy and stay fixed with the vectors
            (COIN's zero columns, docs/coin.md#open-choices).
        targets: paper numbers for this row, keyed like our metrics ("test_accuracy"...).
        target_notes: what the paper's numbers are (split, units, hardware, vectors).
        table_key: the report table this row belongs to; default "<paper>-<dataset>". Set it
            where a paper has several tables on one dataset (COIN's Table 3 ablations).
        compare: (paper target key, our metric key) pairs shown side by side in the report.
            They differ where the paper's split cannot be scored here: MultiNLI test is
            Kaggle-only, so ("test_matched_accuracy", "dev_matched_accuracy") with a note.
        scale: "full", "low-resource" or "smoke" (see docs/design.md#scales).
        train_split, dev_split, test_split: explicit splits; None resolves from the scale.
        split_variant: read the official splits in this registered variant: split
            "paper_dev" becomes the registry's "paper_dev.gold" (FEVER claims with their gold
            evidence as context; "retrieved" for the top-5 retrieved sentences). Explicit
            split names are used as given.
        holdout_fraction: share of the training source held out for model selection when
            the scale trains on the official dev split.
        split_seed: seed of that held-out split; fixed (not the run seed) so that every model
            and every seed sees the same split.
        train_pairs: train on this many pairs of the training part (after the held-out split):
            the first N of one permutation of it drawn with `split_seed`, kept in file order,
            so smaller subsets are nested in larger ones and every model and seed sees the same
            pairs (learning curves, docs/design.md#learning-curves). None, or N at least the
            part's size: the whole part. Classification only.
        select_metric: dev metric used for checkpoint selection ("p@1", "map" or "mrr" for
            ranking).
        bucket_width: batches are padded to a multiple of this many tokens.
        padding: "bucket" (length-bucketed batches padded per batch, evaluation sorted by
            length) or "fixed" (every batch padded to the cut-offs, evaluation in file order:
            what code whose outputs depend on padding or on batch composition needs). ATTCONV
            with `model_kwargs.code_faithful` resolves to "fixed" with evaluation batches of
            the training batch size, as the authors' Theano code.
        jit_compile: XLA. Off by default: with per-batch padding every new batch shape is
            compiled again, which cost more than it saved in our CPU runs (GCNN on Quora:
            0.97 s/step without XLA; 3.1 s/step over the first 14 steps with it). None means
            Keras' "auto". Registered rows get their model's measured setting from
            `experiments/measured_defaults.py` (chosen from `make bench`).
        distribution: data-parallel engine: "none", "mirrored" (tf.distribute, one host),
            "multi_worker" (tf.distribute, hosts from TF_CONFIG) or "keras" (Keras'
            DataParallel under JAX); see `gcnn_match.training.distribution`. `batch_size` stays
            the global batch: each of R replicas computes on batch_size / R pairs.
        runs_of: a row that trains nothing itself and reports the runs of the registered
            row of that name (the same configuration printed in two tables, e.g. COIN's
            "original" ablation); the reproduce driver trains that row's missing runs.
        ensemble_size: with `runs_of`, report the majority vote of its seeds
            1..ensemble_size instead (COIN's "ensemble" rows).
        checkpoint_every_minutes: inside an epoch, save a resume point once this many minutes
            of training passed since the last one, so a kill loses at most that much of a long
            epoch (`training/monitor.py`); 0 saves after every step, None only at epoch ends
            (multi-worker runs: always, as each worker's clock would pick another step).
            Epochs shorter than this never write one, and a resumed run ends as an
            uninterrupted one would: the field is in `RESULT_NEUTRAL_FIELDS`.
    """

    name: str
    paper: str
    table: str
    row: str
    dataset: str
    model: str
    task: str = "classification"
    ranking_margin: float = 1.0
    model_kwargs: Dict[str, Any] = dataclasses.field(default_factory=dict)
    tokenizer: str = "whitespace"
    lowercase: bool = False
    use_given_tokens: bool = True
    max_len_a: int = 40
    max_len_b: int = 40
    embeddings: str = "glove-6b-50d-packaged"
    embedding_dim: int = 300
    embedding_width: Optional[int] = None
    trainable_padding: bool = False
    embeddings_trainable: bool = True
    oov_init: str = "normal"
    oov_scale: float = 0.01
    embedding_match: str = "exact_then_lower"
    optimizer: OptimizerConfig = OptimizerConfig()
    batch_size: int = 64
    eval_batch_size: int = 256
    epochs: int = 20
    early_stopping_patience: int = 5
    targets: Dict[str, float] = dataclasses.field(default_factory=dict)
    target_notes: str = ""
    compare: Tuple[Tuple[str, str], ...] = (("test_accuracy", "test_accuracy"),)
    table_key: Optional[str] = None
    scale: str = "full"
    train_split: Optional[str] = None
    dev_split: Optional[str] = None
    test_split: Optional[str] = None
    split_variant: Optional[str] = None
    extra_eval_splits: Tuple[str, ...] = ()
    holdout_fraction: float = 0.1
    split_seed: int = 0
    train_pairs: Optional[int] = None
    max_train_examples: Optional[int] = None
    max_eval_examples: Optional[int] = None
    select_metric: str = "accuracy"
    seed: int = 1
    bucket_width: int = 8
    padding: str = "bucket"
    jit_compile: Optional[bool] = False
    distribution: str = "none"
    runs_of: Optional[str] = None
    ensemble_size: int = 0
    checkpoint_every_minutes: Optional[float] = 5.0

    def __post_init__(self):
        if self.scale not in SCALES:
            raise ValueError(f"scale must be one of {SCALES}, got {self.scale!r}")
        if self.task not in TASKS:
            raise ValueError(f"{self.name}: task must be one of {TASKS}, got {self.task!r}")
        if self.task == "ranking" and self.select_metric not in RANKING_METRICS:
            raise ValueError(
                f"{self.name}: a ranking run selects on one of {RANKING_METRICS}, "
                f"not {self.select_metric!r}; set select_metric"
            )
        if self.distribution not in DISTRIBUTIONS:
            raise ValueError(
                f"distribution must be one of {DISTRIBUTIONS}, got {self.distribution!r}"
            )
        if self.embedding_width is not None and self.embedding_width < 1:
            raise ValueError(f"embedding_width must be positive, got {self.embedding_width}")
        if self.train_pairs is not None and self.train_pairs < 1:
            raise ValueError(f"train_pairs must be positive, got {self.train_pairs}")
        if self.train_pairs is not None and self.task == "ranking":
            raise ValueError(
                f"{self.name}: train_pairs subsets single pairs; a ranking row trains on whole "
                "questions (max_train_examples keeps the first ones)"
            )
        if self.padding not in ("bucket", "fixed"):
            raise ValueError(f"padding must be 'bucket' or 'fixed', got {self.padding!r}")
        if self.checkpoint_every_minutes is not None and self.checkpoint_every_minutes < 0:
            raise ValueError(
                "checkpoint_every_minutes must be 0 or more (None: only at epoch ends), "
                f"got {self.checkpoint_every_minutes!r}"
            )

    def replace(self, **changes):
        """A copy with `changes`; `optimizer` may be given as a dict of its fields."""
        opt = changes.get("optimizer")
        if isinstance(opt, dict):
            changes["optimizer"] = dataclasses.replace(self.optimizer, **opt)
        return dataclasses.replace(self, **changes)

    def to_dict(self):
        return dataclasses.asdict(self)

    def trains_like(self, other):
        """Whether runs of `other` compute exactly what runs of this config would: every field
        but the `DESCRIPTIVE_FIELDS` and the `RESULT_NEUTRAL_FIELDS` is the same."""
        ignored = DESCRIPTIVE_FIELDS + RESULT_NEUTRAL_FIELDS
        mine, theirs = self.to_dict(), other.to_dict()
        return all(mine[key] == theirs[key] for key in mine if key not in ignored)

    def to_json(self):
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    @classmethod
    def from_dict(cls, values):
        values = dict(values)
        values["optimizer"] = OptimizerConfig(**values.get("optimizer", {}))
        values["extra_eval_splits"] = tuple(values.get("extra_eval_splits", ()))
        if "compare" in values:
            values["compare"] = tuple(tuple(pair) for pair in values["compare"])
        return cls(**values)
