r"""Trains one registered experiment, or a registered row on sentence pairs of your own;
`--override key=value` sets any config field.

    python experiments/train.py --experiment=gcnn/quora/gcnn --scale=low-resource \
        --data_dir=../shared/data --override=optimizer.learning_rate=1e-3
    python experiments/train.py --experiment=gcnn/quora/cnn --train_file=mine/train.tsv \
        --test_file=mine/test.tsv --columns=question1,question2,is_duplicate

The shorthand flags (--epochs, --learning_rate, --model_kwargs...) are generated from the table
`SHORTHANDS` in gcnn_match/config/overrides.py; --override entries apply after them. The
flags that describe files of your own (--train_file, --columns, --labels, --dataset_file...) and
--model are defined in gcnn_match/experiments/own_data.py.
"""

from absl import app, flags

from gcnn_match import cli
from gcnn_match.config import overrides
from gcnn_match.data.experiment_data import (
    apply_scale,
    check_epochs_for_scale,
    check_split_names,
)
from gcnn_match.data.own_data import save as save_dataset_file
from gcnn_match.experiments import own_data

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
    "Train on this many logical CPU devices, accelerators left out (to try distribution).",
)
overrides.define_flags()
own_data.define_flags()
flags.adopt_module_key_flags(overrides)  # --helpshort lists them with the flags above
flags.adopt_module_key_flags(own_data)


def _resolve(dataset):
    """The config (the template with the flags' overrides) and its default run directory."""
    try:
        registered, changes = own_data.template(FLAGS.experiment, FLAGS.model, dataset)
        changes += overrides.overrides_from_flags()
        config = overrides.apply_overrides(registered, changes)
        check_epochs_for_scale(config.scale, dict(changes).get("epochs"))
        own_data.check_scale(config.scale, dataset)
        check_split_names(apply_scale(config))
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    return config, overrides.default_run_dir(FLAGS.runs_dir, registered, config)


def main(argv):
    del argv
    try:  # your files are read and checked here, before anything else
        dataset = own_data.dataset_from_flags()
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    if FLAGS.write_dataset_file:
        path = save_dataset_file(dataset, FLAGS.write_dataset_file)
        print(f"wrote {path}; train on it with --dataset_file={path}")
        return
    config, default_dir = _resolve(dataset)
    # TensorFlow loads once the flags are known to be good, so a flag mistake fails at once.
    from gcnn_match.models.registry import model_names
    from gcnn_match.training.distribution import split_cpu
    from gcnn_match.training.loop import run_experiment

    if config.model not in model_names():
        raise app.UsageError(
            f"--model: no model builder {config.model!r}; builders: {', '.join(model_names())}"
        )
    if FLAGS.logical_cpu_devices:
        split_cpu(FLAGS.logical_cpu_devices)  # before anything initialises the devices
    run_dir = FLAGS.model_dir or default_dir
    print(f"run directory: {run_dir}")
    # A missing, cut or malformed file (an InputError) ends in its one line (`cli.run`).
    try:
        run_experiment(config, run_dir, FLAGS.data_dir, FLAGS.cache_dir, resume=FLAGS.resume)
    except FloatingPointError as error:  # a NaN loss
        raise SystemExit(f"error: {error}") from None


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
