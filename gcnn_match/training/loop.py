"""Runs one experiment end to end: data -> model -> fit with selection on dev -> test -> records."""

import json
import pathlib
import time
from typing import NamedTuple

import keras
import numpy as np

from gcnn_match.config.experiment import RESULT_NEUTRAL_FIELDS, ExperimentConfig
from gcnn_match.data import pos
from gcnn_match.data import registry as data_registry
from gcnn_match.data.embeddings import RANDOM, build_embedding_matrix, choose_source
from gcnn_match.data.experiment_data import PreparedData, apply_scale, check_files, prepare_data
from gcnn_match.files import read_json, write_json
from gcnn_match.models.registry import ModelInputs, build_model, input_features
from gcnn_match.training import distribution as distribution_lib
from gcnn_match.training.epoch_progress import EpochProgress
from gcnn_match.training.metrics import is_headline_metric
from gcnn_match.training.monitor import RunMonitor
from gcnn_match.training.optimizers import build_optimizer
from gcnn_match.training.run_dir import RunDirectory, environment_record
from gcnn_match.training.step_timer import StepTimer
from gcnn_match.training.tasks import task_for, write_official_units


def count_params(model, exclude_embeddings=False):
    """Trainable parameters, optionally without the (word/char/POS) embedding tables."""
    total = 0
    for weight in model.trainable_weights:
        if exclude_embeddings and "embedding" in weight.path:
            continue
        total += int(np.prod(weight.shape))
    return total


def source_split(config, role):
    """The split file that a role's examples come from (the held-out part: the train split)."""
    if role == "dev" and config.dev_split == "holdout":
        return config.train_split
    return {"train": config.train_split, "dev": config.dev_split, "test": config.test_split}.get(
        role, role
    )


def model_inputs(config, encoder, data_dir, cache_dir, log=print):
    """ModelInputs for `encoder`'s vocabularies, with the configured pretrained vectors."""
    dataset = data_registry.get_dataset(config.dataset)
    random_dim = config.embedding_width or config.embedding_dim
    matrix, summary = None, f"random {random_dim}d (no pretrained vectors)"
    padded_columns = 0
    # "a|b": the paper's vectors when DATA_DIR has them, else the next source (the report
    # names the one used).
    source, missing = choose_source(config.embeddings, data_dir)
    for name, reason in missing:
        log(f"embeddings: {name} not available ({reason}); trying the next source")
    if source != RANDOM:
        result = build_embedding_matrix(
            encoder.vocab,
            source,
            data_dir=data_dir,
            cache_dir=cache_dir,
            oov=config.oov_init,
            oov_scale=config.oov_scale,
            match=config.embedding_match,
            seed=config.seed,
            width=config.embedding_width,
            padding_init="normal" if config.trainable_padding else None,
        )
        matrix, summary, padded_columns = result.matrix, result.summary(), result.padded_columns
    if missing:
        summary += f" [stand-in: {', '.join(name for name, _ in missing)} not found]"
    log(f"embeddings: {summary}")
    inputs = ModelInputs(
        vocab_size=len(encoder.vocab),
        num_classes=len(dataset.labels),
        embedding_matrix=matrix,
        embedding_dim=random_dim,
        embeddings_trainable=config.embeddings_trainable,
        trainable_padding=padded_columns if config.trainable_padding else 0,
        char_vocab_size=len(encoder.char_vocab) if encoder.char_vocab else None,
        max_chars=encoder.max_chars,
        pos_vocab_size=pos.NUM_POS_TAGS + 1 if encoder.pos else None,
        segments=encoder.segments,
    )
    return inputs, summary


def model_input_shapes(inputs):
    """What rebuilding the model needs besides the config (the vectors come from weights)."""
    return {
        "vocab_size": inputs.vocab_size,
        "num_classes": inputs.num_classes,
        "embedding_dim": inputs.word_dim,
        "embeddings_trainable": inputs.embeddings_trainable,
        "trainable_padding": inputs.trainable_padding,
        "char_vocab_size": inputs.char_vocab_size,
        "max_chars": inputs.max_chars,
        "pos_vocab_size": inputs.pos_vocab_size,
        "segments": inputs.segments,
    }


def compiled_model(config, inputs):
    """The configured model, compiled with the paper's optimizer and its task's loss."""
    task = task_for(config)
    model = build_model(config.model, inputs, **config.model_kwargs)
    task.check_model(model)
    model.compile(
        optimizer=build_optimizer(config.optimizer, batch_size=config.batch_size),
        jit_compile=config.jit_compile if config.jit_compile is not None else "auto",
        **task.compile_args(),
    )
    return model


def training_fits(first_epoch, first_step, epochs):
    """(initial epoch, end epoch, batches of the initial epoch left out) of each `fit` that
    trains epochs [first_epoch, epochs) from step `first_step` of the first. Keras' epochs all
    have one length, so a run resumed inside an epoch fits the rest of it on its own."""
    if not first_step:
        return [(first_epoch, epochs, 0)]
    rest = [(first_epoch + 1, epochs, 0)] if first_epoch + 1 < epochs else []
    return [(first_epoch, first_epoch + 1, first_step)] + rest


def _same_config(saved, config):
    """Whether `saved` (a run's config.json) describes `config`; fields added to
    ExperimentConfig since that run started compare as their defaults, and the
    `RESULT_NEUTRAL_FIELDS` do not count."""
    try:
        saved = ExperimentConfig.from_dict(saved)
    except (TypeError, ValueError):  # not a config with this code's fields
        return False
    neutral = {name: None for name in RESULT_NEUTRAL_FIELDS}
    return json.loads(saved.replace(**neutral).to_json()) == json.loads(
        config.replace(**neutral).to_json()
    )


class _PreparedRun(NamedTuple):
    """What the data phase hands on: the encoded splits, the model's inputs, and their cost."""

    data: PreparedData
    inputs: ModelInputs
    embedding_summary: str
    seconds: float


def run_experiment(
    config,
    run_dir,
    data_dir,
    cache_dir=None,
    resume=True,
    log=print,
    on_throughput=None,
    callbacks=(),
):
    """Trains `config` in `run_dir` (resuming if possible) and returns its final metrics.

    `on_throughput(seconds per step, steps per epoch)`, when given, is called once, after
    the run's first training steps (`StepTimer`); a run with nothing left to train never
    calls it. `callbacks` are Keras callbacks added to the run's own (after them).
    """
    distribution = distribution_lib.resolve(config.distribution)
    if not distribution.is_chief:  # every worker keeps records; the chief's are the run's
        run_dir = pathlib.Path(run_dir) / distribution.task.replace(":", "-")
    run = RunDirectory(run_dir)
    if resume and run.is_complete():
        log(f"{run.path}: already complete")
        return read_json(run.metrics_file)
    config = apply_scale(config)
    check_files(config, data_dir)  # a missing, cut or malformed file stops the run here
    _write_run_records(run, config, data_dir, distribution, resume)
    keras.utils.set_random_seed(config.seed)
    if distribution.replicas > 1:
        log(
            f"{distribution.engine}: {distribution.replicas} replicas, "
            f"{config.batch_size / distribution.replicas:g} pairs each per step"
        )

    start = time.perf_counter()
    task = task_for(config, distribution.replicas)
    prepared = _prepare_data(run, config, task, data_dir, cache_dir, start, log)
    model, params = _build_model(run, config, prepared.inputs, distribution, log)
    first_epoch, first_step = _resume(run, model, config, distribution, resume, log)
    if first_epoch < config.epochs:
        start_at = (first_epoch, first_step)
        _fit(
            run,
            model,
            config,
            task,
            prepared.data,
            distribution,
            start_at,
            log,
            on_throughput,
            callbacks,
        )
    metrics = _final_metrics(run, model, config, task, prepared, params, data_dir)
    metrics["wall_seconds"] = time.perf_counter() - start
    write_json(run.metrics_file, metrics)
    log(
        f"{config.name}: "
        + ", ".join(f"{k} {v:.4f}" for k, v in metrics.items() if is_headline_metric(k))
    )
    return metrics


def _write_run_records(run, config, data_dir, distribution, resume):
    """Creates the run directory and records the config, the dataset and the environment;
    refuses to resume a directory that holds another config's run."""
    run.create()
    saved = read_json(run / "config.json")
    if saved is not None and resume and not _same_config(saved, config):
        raise ValueError(
            f"{run.path} holds a run of a different config; choose another "
            "--model_dir or pass --noresume to start over"
        )
    write_json(run / "config.json", config.to_dict())
    write_json(run / "dataset.json", data_registry.get_dataset(config.dataset).to_dict())
    write_json(
        run / "environment.json",
        {**environment_record(data_dir), "distribution": distribution.record()},
    )


def _prepare_data(run, config, task, data_dir, cache_dir, start, log):
    """Encodes the splits and builds the model's inputs, saving what predicting on new text
    needs (the preprocessing, the input shapes); `start` is when preprocessing began."""
    data = prepare_data(
        config, data_dir, cache_dir, input_features(config.model, **config.model_kwargs)
    )
    data.notes.extend(task.data_notes(data.splits))
    for note in data.notes:
        log(note)
    data.encoder.save(run / "preprocessing")
    inputs, embedding_summary = model_inputs(config, data.encoder, data_dir, cache_dir, log)
    write_json(run / "model_inputs.json", model_input_shapes(inputs))
    return _PreparedRun(data, inputs, embedding_summary, time.perf_counter() - start)


def _build_model(run, config, inputs, distribution, log):
    """The compiled model and its parameter counts; its summary goes into the run directory."""
    with distribution.scope():
        model = compiled_model(config, inputs)
    params = {
        "trainable_params": count_params(model),
        "trainable_params_without_embeddings": count_params(model, exclude_embeddings=True),
    }
    log(
        f"{config.name}: {params['trainable_params']:,} trainable parameters "
        f"({params['trainable_params_without_embeddings']:,} without embeddings)"
    )
    summary_lines = []
    model.summary(print_fn=lambda line, **_: summary_lines.append(line))
    (run / "model_summary.txt").write_text("\n".join(summary_lines) + "\n", "utf-8")
    return model, params


def _resume(run, model, config, distribution, resume, log):
    """(epoch, step) to train from: the run's resume point, loaded into `model`, or (0, 0)
    with the records of an earlier attempt removed."""
    point = run.resume_point() if resume else None
    if point is None:
        for stale in (
            "epochs.jsonl",
            "checkpoints/best.json",
            "checkpoints/last.json",
            "checkpoints/mid.json",
        ):
            (run / stale).unlink(missing_ok=True)
        return 0, 0
    with distribution.scope():
        model.optimizer.build(model.trainable_variables)
    model.load_weights(run / "checkpoints" / point["weights"])
    first_epoch, first_step = point["epoch"], point.get("step", 0)
    if first_step:
        log(f"resuming in epoch {first_epoch + 1} after step {first_step}")
    else:
        log(f"resuming after epoch {first_epoch}")
    if point.get("stopped"):
        first_epoch = config.epochs
    return first_epoch, first_step


def _fit(
    run, model, config, task, data, distribution, start_at, log, on_throughput, extra_callbacks=()
):
    """Trains epochs [first_epoch, config.epochs) from step `first_step` of the first
    (`start_at`: (first_epoch, first_step)), with selection on dev, early stopping and resume
    points (`RunMonitor`), and times its first steps for `on_throughput` (None: untimed);
    `extra_callbacks` follow the run's own."""
    first_epoch, first_step = start_at
    train = data.splits["train"]
    fits = training_fits(first_epoch, first_step, config.epochs)
    datasets = [task.training_dataset(train, data.encoder, *fit) for fit in fits]
    steps = datasets[0][1]
    if first_step:
        # Keras creates the compiled metrics' variables in the first training step, and the
        # monitor restores their running state before it: one evaluation step creates them.
        model.evaluate(datasets[0][0].take(1), verbose=0)
    checkpoint_every_minutes = config.checkpoint_every_minutes
    if distribution.workers > 1:
        # Each worker's clock would pick other steps, and all must resume at the same one.
        checkpoint_every_minutes = None
    # Progress within an epoch, erased before the monitor's one-line summary.
    progress = EpochProgress(steps, config.epochs, first_step=first_step)
    callbacks = [
        keras.callbacks.TerminateOnNaN(),
        progress,
        RunMonitor(
            run,
            lambda m: task.evaluate(m, data.splits["dev"], data.encoder)[1],
            config.select_metric,
            config.early_stopping_patience,
            config.optimizer.plateau_halving,
            task.examples_per_epoch(train),
            log,
            steps=steps,
            checkpoint_every_minutes=checkpoint_every_minutes,
        ),
        keras.callbacks.TensorBoard(str(run / "logs"), write_graph=False, update_freq="epoch"),
    ]
    if on_throughput is not None:

        def report(seconds_per_step, steps_per_epoch):
            progress.clear()  # the reported line stands alone; the next step redraws
            on_throughput(seconds_per_step, steps_per_epoch)

        callbacks.append(StepTimer(steps, report))
    callbacks += list(extra_callbacks)
    for (initial, end, skipped), (train_ds, _) in zip(fits, datasets):
        model.fit(
            train_ds,
            epochs=end,
            initial_epoch=initial,
            steps_per_epoch=steps - skipped,
            shuffle=False,
            verbose=0,
            callbacks=callbacks,
        )
        if model.stop_training:  # early stopping
            break


def _final_metrics(run, model, config, task, prepared, params, data_dir):
    """The run's record: the selected epoch's weights evaluated once on every split but
    train (predictions written beside it), with the run's size, data and speed."""
    data = prepared.data
    records = run.epochs()
    run.load_best(model)
    best = read_json(run / "checkpoints" / "best.json")
    metrics = {
        "name": config.name,
        "scale": config.scale,
        "seed": config.seed,
        "best_epoch": best["epoch"] + 1,
        "epochs_run": len(records),
        **params,
        "embeddings": prepared.embedding_summary,
        "data_notes": data.notes,
        "data_sources": data.sources,
        "examples": {role: len(split) for role, split in data.splits.items()},
        "preprocessing_seconds": prepared.seconds,
    }
    train_seconds = [r["train_seconds"] for r in records]
    metrics["seconds_per_epoch"] = float(np.median(train_seconds)) if train_seconds else None
    metrics["train_examples_per_second"] = (
        task.examples_per_epoch(data.splits["train"]) / metrics["seconds_per_epoch"]
        if train_seconds
        else None
    )
    for role in data.splits:
        if role == "train":
            continue
        split = data.splits[role]
        outputs, values = task.evaluate(model, split, data.encoder)
        task.write_predictions(run / "predictions", role, split, outputs)
        source = data_registry.resolve_split(config.dataset, source_split(config, role), data_dir)
        official = task.official_scores(source, split, outputs)
        write_official_units(
            run / "predictions" / f"{role}_official.tsv", split.uids, official.units
        )
        values.update(official.metrics)
        metrics.update({f"{role}_{k}": v for k, v in values.items()})
    return metrics
