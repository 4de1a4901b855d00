"""Per-example prediction records: what the claims report reads, committed with the results.

Run directories are not committed, so every finished run's per-example outcome on the splits
its table reports is copied into one gzipped CSV per table and scale,

    results/predictions/<table>-<scale>.csv.gz

with one line per (run, test unit):

    row          registered row name, e.g. "gcnn/quora/gcnn"
    seed         the run's seed; 0 for a majority-vote row (COIN's "ensemble": the vote of
                 seeds 1..ensemble_size, `training/ensemble.py`)
    config       the run directory's name without its seed ("low-resource-e300", or with
                 overrides spelled out, "low-resource-e300-epochs6"): runs of one row under
                 different overrides are kept apart
    epochs       epochs the run trained (early stopping may end it before max_epochs)
    max_epochs   the run's epoch cap (its config.json)
    split        the predictions role: "test", "dev", "dev_mismatched", "test_10"...
    uid          the example's id; for a ranking run, the question's
    gold, predicted   label names (empty for ranking)
    correct      1 when predicted == gold; for ranking, when the top-ranked candidate of the
                 question is a correct one (P@1)
    average_precision, reciprocal_rank   ranking only: the question's AP and RR
    fever_correct   FEVER contexts only: the official scorer's per-claim term of the FEVER
                 score, correct × the claim's evidence term from the run's
                 `<split>_official.tsv` (`training/fever_score.py`)

Ranking lines cover the questions with a correct and an incorrect candidate, the ones
P@1 / MAP / MRR average over (`training/metrics.py`), so a row's metric is the mean of its
column over a seed's lines, as `metrics.json` reports it (a score column a run did not write is
empty). `experiments/reproduce.py` calls `update_table_record` after rendering each table;
lines of a (row, seed, config) already in the record are replaced by a rerun's, the others
kept, so rows trained by separate commands accumulate.
"""

import csv
import io
import pathlib
import re

import numpy as np
import pandas as pd

from gcnn_match.data import registry as data_registry
from gcnn_match.files import read_json, write_atomic
from gcnn_match.training import fever_score
from gcnn_match.training.ensemble import majority_vote, read_predictions
from gcnn_match.training.metrics import question_scores, rankable_questions

COLUMNS = (
    "row",
    "seed",
    "config",
    "epochs",
    "max_epochs",
    "split",
    "uid",
    "gold",
    "predicted",
    "correct",
    "average_precision",
    "reciprocal_rank",
    fever_score.UNIT_COLUMN,
)
RUN_KEY = ["row", "seed", "config"]
_TEXT = ("row", "config", "split", "uid", "gold", "predicted")
_SCORES = ("average_precision", "reciprocal_rank", fever_score.UNIT_COLUMN)
# Record columns scored as correct × a per-example term of the official scorer's file.
_OFFICIAL_TERMS = {fever_score.UNIT_COLUMN: fever_score.EVIDENCE_COLUMN}
# Metrics that are a mean of per-unit scores, by the name's ending, and the column holding them.
UNIT_COLUMNS = {
    "accuracy": "correct",
    "p@1": "correct",
    "map": "average_precision",
    "mrr": "reciprocal_rank",
    "fever_score": fever_score.UNIT_COLUMN,
}
# F1 of the dataset's positive class, by the name's ending: a ratio of sums over units, computed
# from the gold and predicted columns (`statistics.unit_terms`), so its "column" names no column.
F1 = "f1"
# The columns read from a line's labels alone, so that labels made elsewhere (a vote rebuilt
# from drawn seeds, the majority class) measure them too; the other scores need the run's own.
LABEL_COLUMNS = ("correct", F1)


def record_path(results_dir, table, scale):
    return pathlib.Path(results_dir) / "predictions" / f"{table}-{scale}.csv.gz"


def split_and_column(metric):
    """("test", "correct") for "test_accuracy", ("dev_mismatched", "correct"),
    ("test_10", "correct") for "test_10_p@1", ("test", "average_precision") for "test_map",
    ("test", F1) for "test_f1", ("test", "fever_correct") for "test_fever_score"; None for a
    metric that is no mean over test units (a time, a count)."""
    for ending, column in {**UNIT_COLUMNS, F1: F1}.items():
        match = re.fullmatch(rf"(.+?)_(?:label_)?{re.escape(ending)}", metric)
        if match:
            return match.group(1), column
    return None


def _splits(config):
    """The prediction roles the row's reported metrics are computed on."""
    parsed = [split_and_column(ours) for _, ours in config.compare]
    return sorted({split for split, _ in filter(None, parsed)})


def _recorded_splits(config, run_dir, run_config):
    """The roles of `_splits` that the run scored (its resolved `run_config`: a scale does not
    score an extra split it trains or selects on), and test, where the run wrote test predictions: a
    claim is judged on test, never on the dev split that selected the checkpoint
    (claims/verdicts.py), even for a row whose paper reports dev numbers (COIN's ablations)."""
    scored = {"dev", *run_config.get("extra_eval_splits", ())}
    test = (pathlib.Path(run_dir) / "predictions" / "test.tsv").exists()
    return sorted({s for s in _splits(config) if s in scored} | ({"test"} if test else set()))


def _scored(frame, path):
    """The labelled lines of `frame` (uid, gold, predicted: those of predictions file `path`, or
    a vote of them) with `correct`, and the `_OFFICIAL_TERMS` columns where the run wrote the
    official scorer's per-example terms beside `path` (`<split>_official.tsv`)."""
    frame = frame[frame["gold"] != ""]  # unlabelled examples (MultiNLI test) score nothing
    frame = frame.assign(correct=(frame["gold"] == frame["predicted"]).astype(int))
    official = path.with_name(f"{path.stem}_official.tsv")
    if not official.exists():
        return frame
    terms = pd.read_csv(official, sep="\t", dtype={"uid": str}, keep_default_na=False)
    terms = frame[["uid"]].merge(terms, on="uid", how="left", validate="one_to_one")
    for column, term in _OFFICIAL_TERMS.items():
        if term not in terms:
            continue
        if terms[term].isna().any():
            uid = terms["uid"][terms[term].isna()].iloc[0]
            raise ValueError(f"{official}: no {term} for example {uid} of {path.name}")
        frame[column] = frame["correct"].to_numpy() * terms[term].to_numpy(int)
    return frame


def _classification_lines(path):
    """One line per labelled example of a predictions file (`_scored`)."""
    uids, gold, predicted, _, _ = read_predictions(path)
    return _scored(pd.DataFrame({"uid": uids, "gold": gold, "predicted": predicted}), path)


def _ranking_lines(path, labels):
    """One line per rankable question of a ranking predictions file."""
    candidates = pd.read_csv(
        path,
        sep="\t",
        quoting=csv.QUOTE_NONE,
        dtype={"uid": str, "question": str, "gold": str},
        keep_default_na=False,
    )
    candidates = candidates[candidates["gold"] != ""]
    correct = (candidates["gold"] != labels[0]).to_numpy(int)
    scores = question_scores(
        candidates["question"].to_numpy(), candidates["score"].to_numpy(float), correct
    )
    keep = rankable_questions(scores)
    return pd.DataFrame(
        {
            "uid": scores["question"][keep],
            "gold": "",
            "predicted": "",
            "correct": scores["p@1"][keep].astype(int),
            "average_precision": scores["ap"][keep],
            "reciprocal_rank": scores["rr"][keep],
        }
    )


def _labels(run_dir, run_config):
    recorded = read_json(run_dir / "dataset.json")
    if recorded is not None:
        return recorded["labels"]
    return data_registry.get_dataset(run_config["dataset"]).labels


def config_label(run_dir):
    """The run directory's name without its seed: low-resource-seed3-e300 -> low-resource-e300."""
    return re.sub(r"-seed\d+", "", pathlib.Path(run_dir).name)


def _split_lines(run_dir, run_config, split):
    path = pathlib.Path(run_dir) / "predictions" / f"{split}.tsv"
    if run_config["task"] == "ranking":
        return _ranking_lines(path, _labels(run_dir, run_config))
    return _classification_lines(path)


def run_lines(config, run_dir, splits=None):
    """The record lines of one finished run of registered row `config`, on `splits` (default:
    those its reported metrics are computed on); None when the run has not finished (no
    metrics.json)."""
    run_dir = pathlib.Path(run_dir)
    metrics = read_json(run_dir / "metrics.json")
    if metrics is None:
        return None
    run_config = read_json(run_dir / "config.json")
    frames = [
        _split_lines(run_dir, run_config, split).assign(split=split)
        for split in splits or _recorded_splits(config, run_dir, run_config)
    ]
    return _with_run(
        pd.concat(frames, ignore_index=True),
        config.name,
        metrics["seed"],
        config_label(run_dir),
        metrics["epochs_run"],
        run_config["epochs"],
    )


def vote_lines(config, member_dirs):
    """The record lines of a majority-vote row (`config.ensemble_size`): the vote of its
    members' predictions, seed 0; None until every member has finished."""
    member_dirs = [pathlib.Path(d) for d in member_dirs]
    members = [read_json(d / "metrics.json") for d in member_dirs]
    if len(members) != config.ensemble_size or any(m is None for m in members):
        return None
    run_config = read_json(member_dirs[0] / "config.json")
    frames = []
    for split in _recorded_splits(config, member_dirs[0], run_config):
        paths = [d / "predictions" / f"{split}.tsv" for d in member_dirs]
        voted, uids = majority_vote(paths)
        gold = read_predictions(paths[0])[1]
        frame = pd.DataFrame({"uid": uids, "gold": gold, "predicted": voted})
        frames.append(_scored(frame, paths[0]).assign(split=split))
    return _with_run(
        pd.concat(frames, ignore_index=True),
        config.name,
        0,
        config_label(member_dirs[0]) + "-vote",
        max(m["epochs_run"] for m in members),
        run_config["epochs"],
    )


def _with_run(frame, row, seed, config, epochs, max_epochs):
    frame = frame.assign(row=row, seed=seed, config=config, epochs=epochs, max_epochs=max_epochs)
    for column in _SCORES:
        if column not in frame:
            frame[column] = np.nan
    return frame[list(COLUMNS)]


def table_lines(configs, run_dirs):
    """The lines of every finished run of `configs` (a table's rows); `run_dirs[name]` lists the
    run directories a row reports (as `experiments/planning.run_dirs` gives them)."""
    frames = []
    for config in configs:
        dirs = run_dirs.get(config.name, [])
        if config.ensemble_size:
            frames.append(vote_lines(config, dirs))
        else:
            frames += [run_lines(config, d) for d in dirs]
    frames = [f for f in frames if f is not None]
    return pd.concat(frames, ignore_index=True) if frames else None


def read_record(path):
    """A record as a DataFrame with the columns of COLUMNS (none when the file does not exist;
    a score column the file lacks is empty).

    Raises:
        ValueError: when the file lacks a column other than a score column.
    """
    path = pathlib.Path(path)
    if not path.exists():
        return pd.DataFrame({c: pd.Series(dtype=object) for c in COLUMNS})
    frame = pd.read_csv(
        path,
        dtype={**{c: str for c in _TEXT}, "seed": int, "epochs": int, "max_epochs": int},
        keep_default_na=False,
        na_values={c: [""] for c in _SCORES},
    )
    lacking = [c for c in COLUMNS if c not in frame and c not in _SCORES]
    if lacking:
        raise ValueError(f"{path}: not a predictions record (no column {', '.join(lacking)})")
    return frame.reindex(columns=list(COLUMNS))


def merge(earlier, lines):
    """`earlier` with the runs of `lines` added; a run (row, seed, config) in both takes the
    lines of `lines`. Sorted by row, config and seed; a run's lines keep their order."""
    if earlier is None or earlier.empty:
        merged = lines
    else:
        rerun = earlier.set_index(RUN_KEY).index.isin(lines.set_index(RUN_KEY).index)
        merged = pd.concat([earlier[~rerun], lines], ignore_index=True)
    return merged.sort_values(RUN_KEY, kind="stable", ignore_index=True)


def write_record(path, frame):
    """Writes `frame` as gzipped CSV, byte for byte the same for the same lines (no timestamp
    in the gzip header), so an unchanged record leaves git with nothing to commit."""
    buffer = io.BytesIO()
    frame.to_csv(
        buffer,
        index=False,
        float_format="%.6g",
        lineterminator="\n",
        compression={"method": "gzip", "mtime": 0},
    )
    write_atomic(path, buffer.getvalue())


def update_table_record(results_dir, table, scale, configs, run_dirs):
    """Adds the finished runs of a table's rows to its record (`record_path`); returns the
    path, or None when no run has finished."""
    lines = table_lines(configs, run_dirs)
    if lines is None:
        return None
    path = record_path(results_dir, table, scale)
    write_record(path, merge(read_record(path), lines))
    return path
