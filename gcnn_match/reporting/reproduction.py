"""The outputs of a reproduction (`experiments/reproduce.py`): each table's section of the report
(REPRODUCTION.md, or REPORT.md for the rows run on a dataset of your own), its JSON record and
its per-example prediction record, from the run directories and the seeds the records keep
whose run directories are elsewhere; and which planned runs the JSON record already holds."""

import dataclasses
import pathlib

from gcnn_match.evidence import predictions, runs
from gcnn_match.experiments import registry
from gcnn_match.files import read_json, write_json
from gcnn_match.reporting import table_sections
from gcnn_match.reporting.marked_sections import update_section


@dataclasses.dataclass(frozen=True)
class Outputs:
    """Where a reproduction's tables go.

    Args:
        scale: the scale its runs trained at.
        report: the Markdown file that receives one section per table and scale.
        results_dir: the folder of the tables' JSON records (`<table>-<scale>.json`).
        command: the command line the tables name as theirs.
    """

    scale: str
    report: pathlib.Path
    results_dir: pathlib.Path
    command: str

    def record(self, table):
        return pathlib.Path(self.results_dir) / f"{table}-{self.scale}.json"


def write_table(table, first, shown, run_dirs, outputs, dataset=None, own_floor=None):
    """Renders table `table` from its rows' runs and its JSON record, writes its section of the
    report and the updated records, and returns the section; None (nothing written) for a
    papers' table none of whose rows has run.

    Args:
        table: the table id.
        first: the table's first registered row (its title).
        shown: the rows as the table shows them; `run_dirs[name]` the run directories of each
            (`experiments/planning.table_runs`).
        outputs: where the section and the record go.
        dataset: your dataset the rows ran on (None: the papers' own); its table is written
            even before any run, as it shows the floors of your splits (`own_floor`).
    """
    record = outputs.record(table)
    rows = runs.keep_earlier_results(runs.collect(shown, run_dirs), read_json(record, []))
    key = f"{table}:{outputs.scale}"
    report = pathlib.Path(outputs.report)
    if dataset is None:
        if not any(row["seeds"] for row in rows):
            return None
        markdown = table_sections.papers_table(
            table, rows, first, outputs.scale, outputs.command, outputs.results_dir
        )
        update_section(report, key, markdown)
    else:
        markdown = table_sections.own_data_table(
            rows, first, dataset, outputs.scale, outputs.command, own_floor, outputs.results_dir
        )
        heading = f"# The papers' rows on {dataset.name}: {dataset.description}"
        update_section(report, key, markdown, heading)
    write_json(record, rows)
    predictions.update_table_record(outputs.results_dir, table, outputs.scale, shown, run_dirs)
    return markdown


def not_recorded(planned, outputs, together):
    """`planned` ((config, run directory) pairs) without the runs that have no run directory
    but whose results their table's JSON record keeps per seed (trained on another machine or
    in a run directory since removed), except those in `together`; and a line naming the runs
    left out ("" when none).
    """
    recorded = {}
    kept, skipped = [], []
    for config, run_dir in planned:
        table = registry.table_id(config)
        if table not in recorded:
            recorded[table] = runs.recorded_runs(read_json(outputs.record(table), []))
        key = (config.name, runs.configuration(run_dir), config.seed)
        if key in recorded[table] and not run_dir.exists() and run_dir not in together:
            skipped.append(f"{config.name} seed {config.seed}")
        else:
            kept.append((config, run_dir))
    if not skipped:
        return kept, ""
    return kept, (
        f"kept per seed in {outputs.results_dir}, not trained again (--skip_recorded; "
        f"without it they train): {', '.join(skipped)}"
    )


def write_other_configurations(outputs):
    """Writes the appendix of the report that lists every table's other configurations (runs
    that are not a table's main configuration), when any table records one."""
    appendix = table_sections.other_configurations(outputs.results_dir)
    if appendix:
        update_section(pathlib.Path(outputs.report), "other-configurations", appendix)
