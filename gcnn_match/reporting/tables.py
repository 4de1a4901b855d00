"""Paper-vs-ours tables of a results table's rows (`evidence/runs.py`), as Markdown.

Each row shows the paper's number, ours (mean ± sample standard deviation over the finished
seeds), the delta, the scale and data actually used, the vectors, seconds per epoch, the epochs
its seeds ran against the row's registered schedule (with the cap a command set) and the
hardware; a row that was not run says so. Under the table: the machines and commands behind
what it shows, and the run sets each row keeps in its record but does not show.
"""

import datetime
import re

from gcnn_match.evidence import runs

SCALE_NOTES = {
    "full": "full: official train split, selection on dev",
    "low-resource": "low-resource: trained on official dev minus a 10% held-out part "
    "(grouped by shared sentences, used for selection), tested on official test",
    "smoke": "smoke: a small part of the data (sizes in each row) for a couple of epochs, a "
    "pipeline check, not a result: most rows leave chance, rows that start slowly may not",
}


def _pct(value):
    return "–" if value is None else f"{100 * value:.2f}"


def _fmt(mean_std, scale=100.0, digits=2):
    mean, std = mean_std if mean_std else (None, None)
    if mean is None:
        return "not run"
    text = f"{scale * mean:.{digits}f}"
    return text + (f" ± {scale * std:.{digits}f}" if std else "")


def _epochs(row):
    if not row.get("best_epoch"):
        return "–"
    return ", ".join(f"{b}/{r}" for b, r in zip(row["best_epoch"], row["epochs_run"]))


def _run_epochs(row):
    if not row.get("epochs_run"):
        return "–"
    registered = row["registered_epochs"]
    return runs.run_of_registered(row["epochs_run"], registered, runs.epoch_cap(row, registered))


def _seeds(row):
    size = row.get("ensemble_size")
    return f"vote of {size}" if size and row["runs"] else row["runs"] or 0


def _vectors(summary):
    """Short form of an embeddings summary: source, dimension and token coverage."""
    if not summary or summary == "–":
        return "–"
    # The width runs to the first comma outside parentheses ("padded to 300d (normal(0, 0.01))").
    width = r"\d+d(?:[^,;(]|\((?:[^()]|\([^()]*\))*\))*"
    match = re.match(rf"([^:]+): ({width})?.*?([\d.]+% of tokens)?(?:;|$)", summary)
    stand_in = re.search(r"\[stand-in: (.*?)\]", summary)
    parts = [p for p in (match.group(2), match.group(3)) if p] if match else []
    text = f"{match.group(1) if match else summary} ({', '.join(parts)})" if parts else summary
    return text + (f"; stand-in, {stand_in.group(1)}" if stand_in else "")


def _label(key):
    return key.replace("_", " ")


def _head(compare, paper_column, vectors_column):
    """The header line and the separator line of the table."""
    if paper_column:
        metric_head = "".join(f"| paper: {_label(p)} | ours: {_label(o)} | Δ " for p, o in compare)
        time_head = "| time/epoch paper (s) | time/epoch ours (s) "
    else:
        metric_head = "".join(f"| {_label(o)} " for _, o in compare)
        time_head = "| time/epoch (s) "
    head = (
        f"| row {metric_head}| seeds {time_head}"
        "| best / run epochs | run / registered epochs | params (non-emb.) "
        "| data (train/dev/test) " + ("| vectors |" if vectors_column else "|")
    )
    columns = (8 + 3 * len(compare) if paper_column else 7 + len(compare)) + vectors_column
    return [head, "|" + "---|" * columns]


def _shared_vectors(rows):
    """The vectors of every row that has run when they are the same for all ("" otherwise):
    the table then prints them once under its rows instead of in a column."""
    found = {_vectors(row.get("embeddings")) for row in rows if row["runs"]}
    return found.pop() if len(found) == 1 else ""


def _row_line(row, compare, paper_column, vectors_column):
    """The table line of one row."""
    cells = []
    for paper_key, our_key in compare:
        paper, ours = row["targets"].get(paper_key), row.get(our_key)
        if not paper_column:
            cells.append(f"| {_fmt(ours)} ")
            continue
        delta = "–"
        if paper is not None and ours and ours[0] is not None:
            delta = f"{100 * (ours[0] - paper):+.2f}"
        cells.append(f"| {_pct(paper)} | {_fmt(ours)} | {delta} ")
    examples = row.get("examples")
    data = (
        "/".join(str(examples.get(k, "–")) for k in ("train", "dev", "test")) if examples else "–"
    )
    seconds = row.get("seconds_per_epoch")
    params = row.get("trainable_params_without_embeddings")
    paper_time = f"| {row['targets'].get('seconds_per_epoch', '–')} " if paper_column else ""
    vectors = f"| {_vectors(row.get('embeddings'))} " if vectors_column else ""
    return (
        f"| {row['row']} {''.join(cells)}| {_seeds(row)} {paper_time}"
        f"| {_fmt(seconds, 1.0, 1) if seconds else 'not run'} | {_epochs(row)} "
        f"| {_run_epochs(row)} | {f'{params:,}' if params else '–'} | {data} {vectors}|"
    )


def render_markdown(rows, title=None, command=None, paper_column=True, notes=True):
    """A markdown table: for each (paper key, our key) pair of the rows' `compare` field, the
    paper's value, ours (mean ± std over seeds) and the delta; then time per epoch, epochs,
    parameters, data sizes and vectors (under the table, once, when every row that ran read
    the same). Under it, one line each: the command that rendered it, the machines, the
    vectors and the commands that trained the shown runs. `paper_column=False` (the rows run
    on data of your own): ours only, without the papers' values, deltas, timings and protocol
    notes. `notes=False` (REPRODUCTION.md, which states its caveats once at the top): neither
    the notes on the scale, the columns and the paper's numbers nor the other configurations
    (its appendix lists those of every table, `render_other_configurations`)."""
    rows = [runs.upgrade(row) for row in rows]
    compare = rows[0]["compare"] if rows else []
    vectors = _shared_vectors(rows)
    lines = []
    if title:
        lines += [f"### {title}", ""]
    lines += _head(compare, paper_column, vectors_column=not vectors)
    lines += [_row_line(row, compare, paper_column, not vectors) for row in rows]
    lines.append("")
    if command:
        lines.append(f"- Rendered by `{command}` on {datetime.date.today().isoformat()}.")
    vectors_line = [f"- Vectors: {vectors}."] if vectors else []
    if not notes:
        lines += _machines_line(rows) + vectors_line + _trained_by_line(rows)
        return "\n".join(lines) + "\n"
    scales = sorted({row["scale"] for row in rows if row.get("scale")})
    for scale in scales if paper_column else ():
        lines.append(f"- Scale: {SCALE_NOTES[scale]}.")
    lines += _column_notes(rows) + vectors_line + _hardware(rows, paper_column)
    lines += _paper_notes(rows) + _trained_by_line(rows)
    return "\n".join(lines + _other_configurations(rows)) + "\n"


_SEEDS_FLAG = re.compile(r"--seeds[= ]\S+")


def _trained_by_line(rows):
    """The commands that trained the shown runs, on one line; commands that differ only in
    `--seeds` share one item ("`cmd --seeds=1`, and the same with `--seeds=2`, ...")."""
    commands = list(dict.fromkeys(c for row in rows if row["runs"] for c in runs.commands(row)))
    groups = {}
    for command in commands:
        groups.setdefault(_SEEDS_FLAG.sub("--seeds", command), []).append(command)
    items = []
    for group in groups.values():
        first, *others = group
        seeds = ", ".join(f"`{_SEEDS_FLAG.search(c).group()}`" for c in others)
        items.append(f"`{first}`" + (f", and the same with {seeds}" if others else ""))
    return [f"- Trained by: {'; '.join(items)}"] if items else []


def _column_notes(rows):
    """What the epochs columns and ± say, once per table whose rows have run."""
    if not any(row["runs"] for row in rows):
        return []
    lines = [
        "- Epochs: *best / run*, per seed, the epoch selected on the held-out part and the last "
        "one trained; *run / registered*, the epochs the seeds trained against the row's "
        "registered schedule, with the cap a command set below it (`--epochs`; unknown where "
        "the record does not say). Fewer epochs than both: early stopping."
    ]
    run_sets = rows + [s for row in rows for s in row.get("other_configurations", [])]
    if any(s["runs"] > 1 for s in run_sets):
        lines.append(
            "- ±: the sample standard deviation (n − 1 in the denominator) over the row's seeds."
        )
    return lines


def _machine_list(rows):
    """Each machine behind the shown rows once (with its rows when several)."""
    rows_of = {}
    for row in rows:
        for machine in runs.machines(row):
            rows_of.setdefault(machine, []).append(row["row"])
    machines = list(rows_of)
    if len(machines) > 1:
        machines = [f"{m} for {', '.join(rows_of[m])}" for m in machines]
    return machines


def _machines_line(rows):
    machines = _machine_list(rows)
    return [f"- Machine: {'; '.join(machines)}."] if machines else []


def _hardware(rows, paper_column=True):
    """One line naming each machine behind the shown rows once (with its rows when several)."""
    machines = _machine_list(rows)
    if not machines:
        return []
    paper_timings = "; paper timings are from its own GPU" if paper_column else ""
    return [
        f"- Our hardware: {'; '.join(machines)}{paper_timings}. Ours is "
        "the median epoch of each run, rows run one after another; other jobs may have shared "
        "the CPU, so compare speed with the side-by-side measurements of BENCHMARKS.md "
        "(`make bench`)."
    ]


def _paper_notes(rows):
    """The rows' notes on the paper's numbers, each sentence once: those every row shares,
    then those of some rows, named."""
    rows_of = {}
    for row in rows:
        for sentence in re.split(r"(?<=\.)\s+(?=[^a-z0-9\s])", row["target_notes"]):
            if sentence:
                rows_of.setdefault(sentence.rstrip("."), []).append(row["row"])
    sentences_of = {}
    for sentence, having in rows_of.items():
        sentences_of.setdefault(tuple(having), []).append(sentence)
    every_row = tuple(row["row"] for row in rows)
    lines = []
    for having, sentences in sentences_of.items():
        which = "" if having == every_row else f" ({', '.join(having)})"
        lines.append(f"- Paper numbers{which}: {'. '.join(sentences)}.")
    return lines


def _other_configurations(rows):
    """The run sets each row keeps in its record but does not show."""
    others = [(row, s) for row in rows for s in row.get("other_configurations", [])]
    if not others:
        return []
    lines = [f"- {row['row']}: {_describe(run_set, row)}" for row, run_set in others]
    record = f"results/{others[0][0]['table_id']}-{others[0][1]['scale']}.json"
    return [
        "",
        f"Other configurations of these rows, kept in `{record}`, not shown above:",
        "",
    ] + lines


def _describe(run_set, row):
    """Seeds, epochs, results, machines and commands of a run set, in one line."""
    seeds = run_set["seeds"]
    if row.get("ensemble_size"):
        text = f"vote of {row['ensemble_size']}"
    else:
        text = f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}"
    if "epoch_cap" in run_set:
        cap = run_set["epoch_cap"]
        text += ", registered schedule" if cap is None else f", at most {cap} epochs"
    results = [f"{_label(our)} {_fmt(run_set.get(our))}" for _, our in row["compare"]]
    if run_set.get("seconds_per_epoch"):
        results.append(f"{_fmt(run_set['seconds_per_epoch'], 1.0, 1)} s/epoch")
    commands = "; ".join(f"`{c}`" for c in runs.commands(run_set)) or "not recorded"
    return (
        f"{text} (best / run epochs {_epochs(run_set)}): {', '.join(results)}; "
        f"on {', '.join(runs.machines(run_set))}; trained by {commands}"
    )


def render_other_configurations(records):
    """One table of the run sets that records keep but their tables do not show, with why
    each is not the shown one ("" when there is none). `records` maps (table id, scale) to a
    table's rows."""
    lines = []
    for (table, scale), rows in records.items():
        for row in map(runs.upgrade, rows):
            for run_set in row.get("other_configurations", []):
                results = [f"{_label(our)} {_fmt(run_set.get(our))}" for _, our in row["compare"]]
                lines.append(
                    f"| `{table}-{scale}` | {row['row']} | {_configuration(run_set, row)} "
                    f"| {', '.join(map(str, run_set['seeds']))} "
                    f"| {'; '.join(runs.machines(run_set))} | {', '.join(results)} "
                    f"| {_why_not_shown(run_set, row)} |"
                )
    if not lines:
        return ""
    head = [
        "| table | row | configuration | seeds | machine | result | why not the one shown |",
        "|---|---|---|---|---|---|---|",
    ]
    return "\n".join(head + lines) + "\n"


def _configuration(run_set, row):
    """The run set's vectors and the epochs it ran against the registered ones."""
    epochs = run_set.get("epochs_run") or [0]
    registered = row["registered_epochs"]
    epochs = runs.run_of_registered(epochs, registered, runs.epoch_cap(run_set, registered))
    return f"{_width(run_set)} vectors, {epochs} epochs"


def _width(run_set):
    """The width the run set's vectors were read at ("50d", "50d padded to 300d"), read after
    the source's name, which may hold a width of its own ("glove-6b-50d-packaged: ...")."""
    summary = (run_set.get("embeddings") or "").split(": ", 1)[-1]
    found = re.search(r"\d+d(?: (?:zero-)?padded to \d+d)?", summary)
    return found.group() if found else "unrecorded"


def _why_not_shown(run_set, shown):
    """Why the record ranks `run_set` after the run set its row shows (fewer seeds, then a
    cap below the registered schedule, then fewer epochs)."""
    if run_set["runs"] < shown["runs"]:
        return f"{run_set['runs']} seed{'s' * (run_set['runs'] > 1)} against {shown['runs']}"
    registered = shown["registered_epochs"]
    capped = runs.epoch_cap(run_set, registered) is not None
    if capped and runs.epoch_cap(shown, registered) is None:
        return "capped below the registered schedule, which the shown runs trained"
    if max(run_set.get("epochs_run") or [0]) < max(shown.get("epochs_run") or [0]):
        return "fewer epochs than the shown runs"
    if _width(run_set) != _width(shown):
        return f"as complete; the shown runs read the vectors at the row's width ({_width(shown)})"
    return "as complete; the shown runs are the record's last"
