"""Trains one registered experiment; `--override key=value` sets any config field.

    python experiments/train.py --experiment=gcnn/quora/gcnn --scale=low-resource \
        --data_dir=../shared/data --override=optimizer.learning_rate=1e-3

The shorthand flags (--epochs, --learning_rate, --model_kwargs...) are generated from the table
`SHORTHANDS` in gcnn_match/experiments/overrides.py; --override entries apply after them.
"""

from absl import app, flags

from gcnn_match import cli
from gcnn_match.data.experiment_data import check_epochs_for_scale
from gcnn_match.data.registry import MissingDataError
from gcnn_match.experiments import overrides, registry

FLAGS = flags.FLAGS
flags.DEFINE_string("experiment", None, "Registered experiment name (see reproduce.py --list).")
flags.DEFINE_string("data_dir", "data", "Dataset and embeddings folder (a local mirror).")
flags.DEFINE_string("runs_dir", "runs", "Where run directories are created.")
flags.DEFINE_string("model_dir", None, "Run directory (default: runs_dir/<name>/<scale>-seed<s>).")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_bool("resume", True, "Resume an interrupted run in model_dir.")
flags.DEFINE_integer(
    "logical_cpu_devices",
    None,
    "Split the CPU into this many devices (to try distribution without GPUs).",
)
overrides.define_flags()
flags.adopt_module_key_flags(overrides)  # --helpshort lists them with the flags above


def _resolve():
    """The registered config with the flags' overrides, and its default run directory."""
    if not FLAGS.experiment:
        raise app.UsageError("--experiment is required; reproduce.py --list prints the names")
    try:
        registered = registry.get(FLAGS.experiment)
        changes = overrides.overrides_from_flags()
        config = overrides.apply_overrides(registered, changes)
        check_epochs_for_scale(config.scale, dict(changes).get("epochs"))
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    return config, overrides.default_run_dir(FLAGS.runs_dir, registered, config)


def main(argv):
    del argv
    config, default_dir = _resolve()
    # TensorFlow loads once the flags are known to be good, so a flag mistake fails at once.
    from gcnn_match.training.distribution import split_cpu
    from gcnn_match.training.loop import run_experiment

    if FLAGS.logical_cpu_devices:
        split_cpu(FLAGS.logical_cpu_devices)  # before anything initialises the devices
    run_dir = FLAGS.model_dir or default_dir
    print(f"run directory: {run_dir}")
    try:
        run_experiment(config, run_dir, FLAGS.data_dir, FLAGS.cache_dir, resume=FLAGS.resume)
    except (MissingDataError, FloatingPointError) as error:  # no data; a NaN loss
        raise SystemExit(f"error: {error}") from None


if __name__ == "__main__":
    cli.run(main)
