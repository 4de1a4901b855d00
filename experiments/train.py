"""Trains one registered experiment; any config field can be overridden by a flag.

    python experiments/train.py --experiment=gcnn/quora/gcnn --scale=low-resource \
        --data_dir=../shared/data
"""

from absl import app, flags

from gcnn_match.data.experiment_data import check_epochs_for_scale
from gcnn_match.data.registry import MissingDataError
from gcnn_match.experiments import registry
from gcnn_match.experiments.config import DISTRIBUTIONS
from gcnn_match.experiments.overrides import (
    FIELD_FLAGS,
    apply_overrides,
    default_run_dir,
    parse_model_kwargs,
)
from gcnn_match.training.distribution import split_cpu
from gcnn_match.training.loop import run_experiment

FLAGS = flags.FLAGS
flags.DEFINE_string("experiment", None, "Registered experiment name (see reproduce.py --list).")
flags.DEFINE_string("data_dir", "data", "Dataset and embeddings folder (a local mirror).")
flags.DEFINE_string("runs_dir", "runs", "Where run directories are created.")
flags.DEFINE_string("model_dir", None, "Run directory (default: runs_dir/<name>/<scale>-seed<s>).")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_bool("resume", True, "Resume an interrupted run in model_dir.")
flags.DEFINE_enum("scale", None, ["full", "low-resource", "smoke"], "Protocol (DESIGN.md).")
flags.DEFINE_integer("epochs", None, "Maximum epochs.")
flags.DEFINE_integer("batch_size", None, "Training batch size.")
flags.DEFINE_float("learning_rate", None, "Initial learning rate.")
flags.DEFINE_integer("seed", None, "Seed of Python, NumPy, Keras and the batch order.")
flags.DEFINE_string(
    "embeddings",
    None,
    "Vectors: glove-6b-50d-packaged, glove.840B.300d, "
    "glove.6B.100d, word2vec-googlenews, a file path, or random.",
)
flags.DEFINE_string("train_split", None, "Override the training split.")
flags.DEFINE_string("dev_split", None, "Override the selection split ('holdout' = part of train).")
flags.DEFINE_string("test_split", None, "Override the test split.")
flags.DEFINE_float("holdout_fraction", None, "Held-out share for selection (low-resource).")
flags.DEFINE_integer("max_train_examples", None, "Use only the first N training examples.")
flags.DEFINE_integer("max_eval_examples", None, "Use only the first N dev/test examples.")
flags.DEFINE_bool("jit_compile", None, "Force XLA on or off (default: Keras 'auto').")
flags.DEFINE_integer("bucket_width", None, "Pad batches to multiples of this length.")
flags.DEFINE_float("ranking_margin", None, "Margin of the max-margin loss (ranking rows).")
flags.DEFINE_list("model_kwargs", [], "Builder arguments as key=value (JSON values).")
flags.DEFINE_enum(
    "distribution",
    None,
    DISTRIBUTIONS,
    "Data parallelism: mirrored (one host, several devices), multi_worker (hosts "
    "from TF_CONFIG), keras (DataParallel, JAX backend). batch_size stays global.",
)
flags.DEFINE_integer(
    "logical_cpu_devices",
    None,
    "Split the CPU into this many devices (to try distribution without GPUs).",
)


def main(argv):
    del argv
    if FLAGS.logical_cpu_devices:
        split_cpu(FLAGS.logical_cpu_devices)  # before anything initialises the devices
    if not FLAGS.experiment:
        raise app.UsageError("--experiment is required; reproduce.py --list prints the names")
    try:
        check_epochs_for_scale(FLAGS.scale, FLAGS.epochs)
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    registered = registry.get(FLAGS.experiment)
    config = apply_overrides(
        registered,
        {name: FLAGS[name].value for name in FIELD_FLAGS},
        FLAGS.learning_rate,
        parse_model_kwargs(FLAGS.model_kwargs),
    )
    run_dir = FLAGS.model_dir or default_run_dir(FLAGS.runs_dir, registered, config)
    print(f"run directory: {run_dir}")
    try:
        run_experiment(config, run_dir, FLAGS.data_dir, FLAGS.cache_dir, resume=FLAGS.resume)
    except (MissingDataError, FloatingPointError) as error:  # no data; a NaN loss
        raise SystemExit(f"error: {error}") from None


if __name__ == "__main__":
    app.run(main)
