"""The registry of experiments: one named config per paper table row.

Row modules (`gcnn_match/experiments/<paper>_rows.py`) call `register` at import time. Names
are "<paper>/<dataset>/<row-slug>", and `table_id` groups rows as "<paper>-<dataset>".
"""

import difflib
import importlib
import pkgutil
import re
import unicodedata

from gcnn_match.experiments import measured_defaults

_EXPERIMENTS = {}
_TIME_RATIOS = {}


def slug(text):
    """ "Attention LSTMs (Rocktäschel et al., 2015)" -> "attention_lstms_rocktaschel_et_al_2015"."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")


def register(config):
    """Adds `config` under its name, with its model's measured speed defaults
    (`measured_defaults.py`)."""
    config = measured_defaults.apply(config)
    if config.name in _EXPERIMENTS:
        raise ValueError(f"experiment {config.name!r} registered twice")
    _EXPERIMENTS[config.name] = config
    return config


def register_time_ratios(table, pairs):
    """Row pairs (slower, faster) whose time-per-epoch ratio a paper's claim rests on."""
    _TIME_RATIOS[table] = list(pairs)


def time_ratios(table):
    _load()
    return _TIME_RATIOS.get(table, [])


def table_id(config):
    return config.table_key or f"{config.paper.lower()}-{config.dataset}"


def _load():
    import gcnn_match.experiments as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name.endswith("_rows"):
            importlib.import_module(f"gcnn_match.experiments.{module.name}")


def get(name):
    _load()
    if name not in _EXPERIMENTS:
        close = difflib.get_close_matches(name, _EXPERIMENTS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(
            f"unknown experiment {name!r}{hint}; `experiments/reproduce.py --list` "
            "prints every registered row"
        )
    return _EXPERIMENTS[name]


def select(table=None, dataset=None, paper=None, rows=None):
    """Registered configs in registration order, filtered.

    `rows` is a list of row names or slugs (as printed in the paper, or the last part of the
    experiment name), e.g. ["GCNN", "gcnn_forget_gate"].
    """
    _load()
    out = []
    wanted = {slug(r) for r in rows} if rows else None
    for config in _EXPERIMENTS.values():
        if table and table_id(config) != table:
            continue
        if dataset and config.dataset != dataset:
            continue
        if paper and config.paper.lower() != paper.lower():
            continue
        if wanted and slug(config.row) not in wanted and config.name.split("/")[-1] not in wanted:
            continue
        out.append(config)
    return out


def tables():
    _load()
    return sorted({table_id(c) for c in _EXPERIMENTS.values()})
