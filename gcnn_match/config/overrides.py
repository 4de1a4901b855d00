"""Command-line overrides of a registered experiment, and where its run directory goes.

One mechanism: `--override key=value` (repeatable) sets any config field, with dotted keys for
the fields of `optimizer` and the entries of a dict field (`optimizer.learning_rate=1e-3`,
`model_kwargs.hidden=200`). Values are JSON; text that is not JSON stays a string. The
shorthand flags of `SHORTHANDS` (`--epochs=3`) are spelled-out overrides and go through the
same path. Overrides apply in order, so the later wins: the registered config, then the
shorthand flags, then each `--override` in command-line order.
"""

import dataclasses
import difflib
import hashlib
import json
import pathlib
import re
import typing
from typing import Any, NamedTuple, Tuple

from absl import flags

from gcnn_match.config.experiment import (
    DISTRIBUTIONS,
    RESULT_NEUTRAL_FIELDS,
    SCALES,
    ExperimentConfig,
)


class OverrideError(ValueError):
    """A key or value that the config does not accept; the message names the fix."""


class Shorthand(NamedTuple):
    """`--<flag>=v` means `--override=<key>=v`. The flag's type is the field's; a dict field
    takes a list of name=value entries, each one `--override=<key>.<name>=value`."""

    flag: str
    key: str
    help: str
    choices: Tuple[str, ...] = ()


SHORTHANDS = (
    Shorthand("scale", "scale", "Protocol (docs/design.md#scales).", SCALES),
    Shorthand("epochs", "epochs", "Maximum epochs."),
    Shorthand("batch_size", "batch_size", "Training batch size."),
    Shorthand("learning_rate", "optimizer.learning_rate", "Initial learning rate."),
    Shorthand("seed", "seed", "Seed of Python, NumPy, Keras and the batch order."),
    Shorthand(
        "embeddings",
        "embeddings",
        "Vectors: glove-6b-50d-packaged, glove.840B.300d, "
        "glove.6B.100d, word2vec-googlenews, a file path, or random.",
    ),
    Shorthand(
        "embedding_width",
        "embedding_width",
        "Width of the word vectors: narrower ones are padded (OOV policy). Rows register "
        "their paper's; --override=embedding_width=null keeps the vectors' own.",
    ),
    Shorthand("train_split", "train_split", "Override the training split."),
    Shorthand(
        "dev_split", "dev_split", "Override the selection split ('holdout' = part of train)."
    ),
    Shorthand("test_split", "test_split", "Override the test split."),
    Shorthand(
        "holdout_fraction", "holdout_fraction", "Held-out share for selection (low-resource)."
    ),
    Shorthand(
        "train_pairs",
        "train_pairs",
        "Train on a nested subset of N pairs of the training part (learning curves).",
    ),
    Shorthand(
        "max_train_examples", "max_train_examples", "Use only the first N training examples."
    ),
    Shorthand("max_eval_examples", "max_eval_examples", "Use only the first N dev/test examples."),
    Shorthand("jit_compile", "jit_compile", "Force XLA on or off (default: Keras 'auto')."),
    Shorthand("bucket_width", "bucket_width", "Pad batches to multiples of this length."),
    Shorthand("ranking_margin", "ranking_margin", "Margin of the max-margin loss (ranking rows)."),
    Shorthand(
        "distribution",
        "distribution",
        "Data parallelism: mirrored (one host, several devices), multi_worker (hosts "
        "from TF_CONFIG), keras (DataParallel, JAX backend). batch_size stays global.",
        DISTRIBUTIONS,
    ),
    Shorthand("model_kwargs", "model_kwargs", "Builder arguments as key=value (JSON values)."),
    Shorthand(
        "checkpoint_every_minutes",
        "checkpoint_every_minutes",
        "Save a resume point inside an epoch every this many minutes (0: after every step; "
        "--override=checkpoint_every_minutes=null: at epoch ends only).",
    ),
)


def _plain(annotation):
    """Optional[X] -> X."""
    if typing.get_origin(annotation) is typing.Union:
        return next(a for a in typing.get_args(annotation) if a is not type(None))
    return annotation


def _is_dict(annotation):
    return typing.get_origin(_plain(annotation)) is dict


def valid_keys():
    """Every key an override may set; `<name>` stands for any entry of a dict field."""
    keys = []
    for name, annotation in typing.get_type_hints(ExperimentConfig).items():
        keys.append(name)
        if dataclasses.is_dataclass(annotation):
            keys += [f"{name}.{sub}" for sub in typing.get_type_hints(annotation)]
        elif _is_dict(annotation):
            keys.append(f"{name}.<name>")
    return keys


def _unknown(key):
    keys = valid_keys()
    close = difflib.get_close_matches(key, keys, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return OverrideError(
        f"--override: unknown config key {key!r}{hint}; valid keys: {', '.join(keys)}"
    )


def _annotation(key):
    """The type that `key` ("epochs", "optimizer.epsilon", "model_kwargs.hidden") holds."""
    top, dot, sub = key.partition(".")
    hints = typing.get_type_hints(ExperimentConfig)
    if top not in hints:
        raise _unknown(key)
    annotation = hints[top]
    if not dot:
        return annotation
    if dataclasses.is_dataclass(annotation):
        nested = typing.get_type_hints(annotation)
        if sub not in nested:
            raise _unknown(key)
        return nested[sub]
    if _is_dict(annotation) and sub and "." not in sub:
        return Any
    raise _unknown(key)


def _coerce(key, value, annotation):
    """`value` as the field's type; JSON gives lists where the config keeps tuples."""
    if annotation is Any:
        return value
    if typing.get_origin(annotation) is typing.Union:
        return None if value is None else _coerce(key, value, _plain(annotation))
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if annotation is bool and isinstance(value, bool):
        return value
    if annotation is int and number and isinstance(value, int):
        return value
    if annotation is float and number:
        return float(value)
    if annotation is str and isinstance(value, str):
        return value
    if origin is dict and isinstance(value, dict):
        return dict(value)
    if origin is tuple and isinstance(value, (list, tuple)):
        items = args[:1] * len(value) if args[1:] == (Ellipsis,) else args
        if len(items) == len(value):
            return tuple(_coerce(key, v, a) for v, a in zip(value, items))
    expected = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
    expected = expected.get(annotation) or ("a JSON list" if origin is tuple else "a JSON object")
    raise OverrideError(f"--override: {key} takes {expected}, got {value!r}")


def override_text(value):
    """`value` as `parse_override` reads it back: JSON, except text (which stays text)."""
    return value if isinstance(value, str) else json.dumps(value)


def parse_override(text, flag="--override"):
    """ "optimizer.learning_rate=1e-3" -> ("optimizer.learning_rate", 0.001): a JSON value, or
    the text itself where it is not JSON (`embeddings=random`)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise OverrideError(f"{flag} takes key=value, got {text!r}")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def _expanded(changes):
    """A dict given for `optimizer` sets the fields it names."""
    for key, value in changes:
        if isinstance(value, dict) and dataclasses.is_dataclass(_annotation(key)):
            yield from ((f"{key}.{sub}", v) for sub, v in value.items())
        else:
            yield key, value


def apply_overrides(config, changes):
    """`config` with `changes`, (dotted key, value) pairs applied in order, each validated
    against the config dataclasses. A dict given for a dict field (`model_kwargs`) replaces
    it; a dotted key sets one entry."""
    values = config.to_dict()
    for key, value in _expanded(changes):
        value = _coerce(key, value, _annotation(key))
        top, dot, sub = key.partition(".")
        if dot:
            values[top][sub] = value
        else:
            values[key] = value
    try:
        return ExperimentConfig.from_dict(values)
    except ValueError as error:  # a value outside the field's choices
        raise OverrideError(f"--override: {error}") from None


_DEFINE = {
    bool: flags.DEFINE_bool,
    int: flags.DEFINE_integer,
    float: flags.DEFINE_float,
    str: flags.DEFINE_string,
}


def _selected(names):
    return [s for s in SHORTHANDS if names is None or s.flag in names]


def define_flags(shorthands=None, flag_values=flags.FLAGS):
    """Defines --override and the flags of `SHORTHANDS` (all, or those named)."""
    flags.DEFINE_multi_string(
        "override",
        [],
        "Set a config field: key=value, repeatable; dotted keys for nested fields "
        "(optimizer.learning_rate=1e-3, model_kwargs.hidden=200); JSON values, else text. "
        "Applied after the shorthand flags, in order.",
        flag_values=flag_values,
    )
    for shorthand in _selected(shorthands):
        annotation = _plain(_annotation(shorthand.key))
        key = f"{shorthand.key}.<name>" if _is_dict(annotation) else shorthand.key
        args = dict(
            name=shorthand.flag,
            default=None,
            help=f"{shorthand.help} Shorthand of --override={key}=...",
            flag_values=flag_values,
        )
        if shorthand.choices:
            flags.DEFINE_enum(enum_values=shorthand.choices, **args)
        elif _is_dict(annotation):
            flags.DEFINE_list(**{**args, "default": []})
        else:
            _DEFINE[annotation](**args)


def overrides_from_flags(shorthands=None, flag_values=flags.FLAGS):
    """(dotted key, value) pairs from the shorthand flags `define_flags(shorthands)` defined
    that are set, then from each --override: the order `apply_overrides` applies them in."""
    changes = []
    for shorthand in _selected(shorthands):
        value = flag_values[shorthand.flag].value
        if _is_dict(_annotation(shorthand.key)):
            for entry in value:
                name, entry_value = parse_override(entry, flag=f"--{shorthand.flag}")
                changes.append((f"{shorthand.key}.{name}", entry_value))
        elif value is not None:
            changes.append((shorthand.key, value))
    return changes + [parse_override(text) for text in flag_values.override]


def default_run_dir(runs_dir, registered, config):
    """runs/<paper>/<dataset>/<row>/<scale>-seed<seed>[-e<embedding width>][-<other overrides>].

    Other overrides are spelled out when short ("-epochs6"), else hashed; only the changed
    fields count, so adding a config field later does not move existing runs, and the
    `RESULT_NEUTRAL_FIELDS` never count. The embedding width is named whenever it is set, so
    that runs at the vectors' own width and at the paper's never share a directory.
    """
    width = f"-e{config.embedding_width}" if config.embedding_width else ""
    base = pathlib.Path(runs_dir) / config.name / f"{config.scale}-seed{config.seed}{width}"
    plain = registered.replace(
        scale=config.scale, seed=config.seed, embedding_width=config.embedding_width
    ).to_dict()
    changed = {
        k: v
        for k, v in config.to_dict().items()
        if plain[k] != v and k not in RESULT_NEUTRAL_FIELDS
    }
    if not changed:
        return base
    suffix = "-".join(f"{k}{v}" for k, v in sorted(changed.items()))
    if len(suffix) > 40 or not re.fullmatch(r"[A-Za-z0-9_.\-]+", suffix):
        text = json.dumps(changed, sort_keys=True, default=str)
        suffix = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return base.with_name(f"{base.name}-{suffix}")
