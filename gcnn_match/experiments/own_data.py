"""Registered rows trained on sentence pairs of your own: the flags that describe your files
(train.py), and a registered row as the template of a run on them (train.py, reproduce.py).

A row used as a template keeps its model, hyperparameters, tokenizer, cut-offs, vectors and
schedule; it takes your dataset's splits and labels, loses the paper's targets, and is named
under your dataset ("mine/gcnn/quora/cnn"), so its runs go to runs/mine/... . Without a row,
`--model=<builder>` starts from `ExperimentConfig`'s defaults (Adam 4e-4, batches of 64, at most
20 epochs with patience 5, 40-token cut-offs, GloVe 6B-50d vectors) and the builder's own.
"""

from absl import flags

from gcnn_match.config.experiment import TASKS, ExperimentConfig
from gcnn_match.data import own_data
from gcnn_match.data import registry as data_registry
from gcnn_match.data.own_data_reader import FORMATS
from gcnn_match.experiments import measured_defaults, registry

# The flags that describe files of your own; any of them but --dataset_file needs --train_file.
_FILE_FLAGS = ("dev_file", "test_file", "format", "columns", "header", "labels", "task")
_FILE_FLAGS += ("group_column", "dataset_name", "write_dataset_file")


def define_flags(flag_values=flags.FLAGS):
    """Defines train.py's flags for a dataset of your own and --model."""
    define = dict(flag_values=flag_values)
    flags.DEFINE_string(
        "train_file", None, "Training pairs of your own: tsv, csv or jsonl (.gz too).", **define
    )
    flags.DEFINE_string(
        "dev_file",
        None,
        "Selection pairs; default: a held-out part of --train_file (--holdout_fraction, "
        "grouped by shared sentences).",
        **define,
    )
    flags.DEFINE_string("test_file", None, "Test pairs, evaluated once (optional).", **define)
    flags.DEFINE_enum("format", "tsv", FORMATS, "Format of the files.", **define)
    flags.DEFINE_list(
        "columns",
        ["0", "1", "2"],
        "The first text, the second text and the label: header names or 0-based indices "
        "(jsonl: keys).",
        **define,
    )
    flags.DEFINE_enum(
        "header",
        "auto",
        list(own_data.HEADERS),
        "Whether the first line of each tsv/csv file is a header. auto: it is when the "
        "columns are named or its label field is not a label.",
        **define,
    )
    flags.DEFINE_list(
        "labels",
        ["auto"],
        "auto (the training file's labels, sorted: numbers by value, then text) or the "
        "labels in class order.",
        **define,
    )
    flags.DEFINE_enum("task", "classification", TASKS, "What the labels mean.", **define)
    flags.DEFINE_string(
        "group_column",
        None,
        "Ranking: the column of the question each candidate answers (name or index).",
        **define,
    )
    flags.DEFINE_string(
        "dataset_name", None, "Your dataset's name (default: the training file's folder).", **define
    )
    flags.DEFINE_string(
        "dataset_file",
        None,
        "A description of your dataset written by --write_dataset_file, instead of the file flags.",
        **define,
    )
    flags.DEFINE_string(
        "write_dataset_file",
        None,
        "Write the description of --train_file etc. to this JSON file and stop (reuse it with "
        "--dataset_file, here or in reproduce.py).",
        **define,
    )
    flags.DEFINE_string(
        "model",
        None,
        "A registered model builder; with --experiment it replaces the row's model (and its "
        "model_kwargs), alone it starts from the config defaults (own data only).",
        **define,
    )


def dataset_from_flags(flag_values=flags.FLAGS, log=print):
    """Your dataset as the flags describe it (--train_file... or --dataset_file), registered
    for this process; None when they name none. Raises DescriptionError on a mistake."""
    values = flag_values
    given = [name for name in _FILE_FLAGS if values[name].present]
    if values.dataset_file:
        if values.train_file or given:
            extra = "--train_file" if values.train_file else f"--{given[0]}"
            raise own_data.DescriptionError(
                "--dataset_file", f"it describes the files already; leave out {extra}"
            )
        return load_dataset_file(values.dataset_file)
    if values.train_file:
        labels = None if values.labels == ["auto"] else values.labels
        spec = own_data.describe(
            values.train_file,
            values.dev_file,
            values.test_file,
            name=values.dataset_name,
            fmt=values.format,
            columns=values.columns,
            header=values.header,
            labels=labels,
            task=values.task,
            group_column=values.group_column,
            log=log,
        )
        return data_registry.register_dataset(spec)
    if given:
        raise own_data.DescriptionError(
            f"--{given[0]}", "describes files of your own: give --train_file too"
        )
    return None


def load_dataset_file(path):
    """Your dataset from its description file (--dataset_file), registered for this process."""
    spec = own_data.load(path)
    own_data.check_name(spec.name, f"--dataset_file: {path}: name", 'rename it ("name")')
    return data_registry.register_dataset(spec)


def usable_rows(configs, dataset, log=print):
    """The rows of `configs` that can run on your `dataset` (as templates, with the rows whose
    runs they report); the others are logged with the reason."""
    usable = []
    for config in configs:
        try:
            on_dataset(registry.get(config.runs_of) if config.runs_of else config, dataset)
        except ValueError as error:
            log(f"skipped: {error}")
            continue
        usable.append(config)
    return usable


def on_dataset(config, dataset):
    """Registered row `config` as the template of a run on `dataset`, your own (module
    docstring). Raises ValueError when the row cannot run on it."""
    if config.task != dataset.task:
        raise ValueError(
            f"{config.name} is a {config.task} row and {dataset.name} a {dataset.task} "
            "dataset; pick a row of its task (reproduce.py --list)"
        )
    if config.split_variant:
        raise ValueError(
            f"{config.name} reads claims with their evidence sentences "
            f"({config.dataset} '{config.split_variant}'), which pairs do not have"
        )
    train, dev, test = dataset.official_splits
    metrics = ("accuracy",) if dataset.task == "classification" else ("map", "mrr", "p@1")
    scored = ("dev", "test") if test else ("dev",)
    return config.replace(
        name=f"{dataset.name}/{config.name}",
        dataset=dataset.name,
        train_split=train,
        dev_split=dev,
        test_split=test,
        split_variant=None,
        extra_eval_splits=(),
        targets={},
        target_notes="",
        compare=tuple((f"{s}_{m}", f"{s}_{m}") for s in scored for m in metrics),
        table_key=registry.table_id(config),
    )


def template(experiment=None, model=None, dataset=None):
    """The config a train.py run starts from, and the changes --model makes to it.

    `experiment`: a registered row (on `dataset` when given: `on_dataset`); `model` alone
    starts from the config defaults on your `dataset`. A `model` other than the row's
    replaces it, with the builder's default arguments: changes, so that the run directory
    names them.
    """
    if experiment:
        try:
            config = registry.get(experiment)
            if dataset is not None:
                config = on_dataset(config, dataset)
        except ValueError as error:
            raise ValueError(f"--experiment: {error}") from None
        changed = model is not None and model != config.model
        return config, [("model", model), ("model_kwargs", {})] if changed else []
    if model is None or dataset is None:
        raise ValueError(
            "--experiment is required (reproduce.py --list prints the rows); --model alone "
            "needs a dataset of your own (--train_file or --dataset_file)"
        )
    plain = ExperimentConfig(
        name=f"custom/{model}",
        paper="custom",
        table="",
        row=model,
        dataset=dataset.name,
        model=model,
        task=dataset.task,
        select_metric="accuracy" if dataset.task == "classification" else "map",
    )
    return on_dataset(measured_defaults.apply(plain), dataset), []


def check_scale(scale, dataset):
    """Your files are the splits: the low-resource scale (train on the official dev split)
    has no meaning on them."""
    if dataset is not None and scale == "low-resource":
        raise ValueError(
            "--scale: low-resource trains on a dataset's official dev split; your files are "
            "the splits: leave --scale out (full), or --scale=smoke for a pipeline check"
        )
