"""Command-line overrides of a registered experiment, and where its run directory goes."""

import hashlib
import json
import pathlib
import re

# Flag name -> config field, for flags that override a field one to one.
FIELD_FLAGS = (
    "scale",
    "epochs",
    "batch_size",
    "seed",
    "embeddings",
    "train_split",
    "dev_split",
    "test_split",
    "holdout_fraction",
    "max_train_examples",
    "max_eval_examples",
    "jit_compile",
    "bucket_width",
    "ranking_margin",
    "distribution",
)


def parse_model_kwargs(items):
    """["hidden=200", "variant=glu"] -> {"hidden": 200, "variant": "glu"} (JSON values)."""
    out = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--model_kwargs entries look like key=value, got {item!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def apply_overrides(config, values, learning_rate=None, model_kwargs=None):
    """`values` maps FIELD_FLAGS names to a value or None (None keeps the registered one)."""
    changes = {k: v for k, v in values.items() if k in FIELD_FLAGS and v is not None}
    if learning_rate is not None:
        changes["optimizer"] = {"learning_rate": learning_rate}
    if model_kwargs:
        changes["model_kwargs"] = {**config.model_kwargs, **model_kwargs}
    return config.replace(**changes)


def default_run_dir(runs_dir, registered, config):
    """runs/<paper>/<dataset>/<row>/<scale>-seed<seed>[-<other overrides>].

    Other overrides are spelled out when short ("-epochs6"), else hashed; only the changed
    fields count, so adding a config field later does not move existing runs.
    """
    base = pathlib.Path(runs_dir) / config.name / f"{config.scale}-seed{config.seed}"
    plain = registered.replace(scale=config.scale, seed=config.seed).to_dict()
    changed = {k: v for k, v in config.to_dict().items() if plain[k] != v}
    if not changed:
        return base
    suffix = "-".join(f"{k}{v}" for k, v in sorted(changed.items()))
    if len(suffix) > 40 or not re.fullmatch(r"[A-Za-z0-9_.\-]+", suffix):
        text = json.dumps(changed, sort_keys=True, default=str)
        suffix = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return base.with_name(f"{base.name}-{suffix}")
