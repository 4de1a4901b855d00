"""The registry of learning curves: registered rows trained on nested subsets of their
low-resource training part, to see whether a paper's gap opens or closes as data grows
(docs/design.md#learning-curves).

A curve names its rows, the pairs (A, B) whose gap A − B it follows (A: the row the paper
claims better), the subset sizes and the seeds. A size is a `train_pairs` value (None: the whole
training part, whose runs are the table's own low-resource runs); every size reads the same
held-out (selection) part and the same test split.
"""

import dataclasses
import shlex
from typing import Optional, Tuple

from gcnn_match.config.overrides import OverrideError, override_text
from gcnn_match.experiments import planning, registry

SIZES = (1000, 3000, None)
SEEDS = (1, 2, 3)

_CURVES = {}


@dataclasses.dataclass(frozen=True)
class Curve:
    """One learning curve.

    Args:
        name: its key, "gcnn-quora"; the record is results/curves-<name>.json.
        title: the claim it follows, in a few words.
        rows: registered row names, in the order the figure and tables list them.
        gaps: (A, B) pairs of `rows`: the gap followed is A − B, A the row claimed better.
        note: why these rows (e.g. how an ablation was picked), with the record it rests on.
        sizes: `train_pairs` per point, ascending; None (the whole training part) last.
        seeds: the seeds each row trains at each size.
        metric: the metric on the y axis, a mean over test units (`evidence/predictions.py`).
        scale: the protocol whose training part is subset.
    """

    name: str
    title: str
    rows: Tuple[str, ...]
    gaps: Tuple[Tuple[str, str], ...]
    note: str = ""
    sizes: Tuple[Optional[int], ...] = SIZES
    seeds: Tuple[int, ...] = SEEDS
    metric: str = "test_accuracy"
    scale: str = "low-resource"

    def __post_init__(self):
        for a, b in self.gaps:
            if a not in self.rows or b not in self.rows:
                raise ValueError(f"curve {self.name}: gap {a} − {b} is not of its rows")
        numbers = [size for size in self.sizes if size is not None]
        if numbers != sorted(numbers) or None in self.sizes[:-1]:
            raise ValueError(f"curve {self.name}: sizes ascend, None (the whole part) last")

    def command(self, seeds=None, report_only=False, changes=()):
        """The command that trains the curve's missing runs and renders it; `report_only`:
        the one that records the finished runs and the floors, and renders, training nothing;
        `changes`: the overrides ((key, value) pairs) it applies, each as an `--override`."""
        args = [f"--curve={self.name}"]
        if seeds and tuple(seeds) != self.seeds:
            args.append(f"--seeds={','.join(map(str, seeds))}")
        args += [f"--override={key}={override_text(value)}" for key, value in changes]
        if report_only:
            args.append("--report_only")
        return "python experiments/curves.py " + shlex.join(args + ["--data_dir=../shared/data"])


def register(curve):
    """Adds `curve` (its rows must be registered)."""
    if curve.name in _CURVES:
        raise ValueError(f"curve {curve.name!r} registered twice")
    for row in curve.rows:
        registry.get(row)
    _CURVES[curve.name] = curve
    return curve


def get(name):
    if name not in _CURVES:
        raise ValueError(f"unknown curve {name!r} (known: {', '.join(_CURVES)})")
    return _CURVES[name]


def names():
    return list(_CURVES)


def size_changes(size):
    """The overrides that train at `size`: none for the whole part."""
    return [] if size is None else [("train_pairs", size)]


def planned(curve, seeds, runs_dir, changes=()):
    """{(row name, size): [(config, run directory) per seed]}, `changes` (overrides such as an
    epoch cap) applied to every run; the runs of size None are the row's low-resource runs."""
    if any(key == "train_pairs" for key, _ in changes):
        raise OverrideError("--override: a curve sets train_pairs itself (its sizes)")
    return {
        (row, size): planning.planned_runs(
            registry.get(row),
            seeds,
            curve.scale,
            runs_dir,
            list(changes) + size_changes(size),
        )
        for row in curve.rows
        for size in curve.sizes
    }


register(
    Curve(
        name="gcnn-quora",
        title="GCNN vs CNN on Quora (GCNN Table 2)",
        rows=("gcnn/quora/gcnn", "gcnn/quora/cnn"),
        gaps=(("gcnn/quora/gcnn", "gcnn/quora/cnn"),),
    )
)
register(
    Curve(
        name="attconv-snli",
        title="ATTCONV advanced vs light vs APCNN on SNLI (ATTCONV Table 7)",
        rows=(
            "attconv/snli/attconv_advanced",
            "attconv/snli/attconv_light",
            "attconv/snli/apcnn_dos_santos_et_al_2016",
        ),
        gaps=(
            ("attconv/snli/attconv_advanced", "attconv/snli/attconv_light"),
            ("attconv/snli/attconv_light", "attconv/snli/apcnn_dos_santos_et_al_2016"),
            ("attconv/snli/attconv_advanced", "attconv/snli/apcnn_dos_santos_et_al_2016"),
        ),
    )
)
register(
    Curve(
        name="coin-quora",
        title="COIN vs its ablation w/o context on Quora (COIN Tables 2 and 3)",
        rows=("coin/quora/coin_ours", "coin/quora/ablation_w_o_context"),
        gaps=(("coin/quora/coin_ours", "coin/quora/ablation_w_o_context"),),
        note=(
            "Why this ablation, and what Table 3's 5-seed runs say of the choice: "
            "[docs/design.md](docs/design.md#learning-curves)."
        ),
    )
)
