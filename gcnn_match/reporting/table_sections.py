"""The markdown section of one table: the papers' table in REPRODUCTION.md, or the same rows on a
dataset of your own in its REPORT.md. Everything but the rows' results comes from committed
records (the floor) and the registry (time ratios, parameter counts)."""

import pathlib

from gcnn_match.baselines import floor
from gcnn_match.experiments import param_counts, registry
from gcnn_match.files import read_json
from gcnn_match.reporting import floor_rows, tables, time_ratios


def papers_table(table, rows, first, scale, command, results_dir):
    """The section of paper table `table` at `scale`: `rows` (`evidence.runs.collect`) beside the
    paper's numbers, the floor's reference rows, the time ratios and the parameter counts.
    `first` is the table's first registered config (its title). REPRODUCTION.md states the
    notes on scales, columns and floors once, so the section leaves them out."""
    title = f"{first.paper} {first.table}: {first.dataset} ({scale})"
    markdown = tables.render_markdown(rows, title=title, command=command, notes=False)
    record = read_json(floor.record_path(results_dir, table, scale))
    markdown = with_floor(markdown, record, rows, results_dir, describe=False)
    markdown += time_ratios.render_time_ratios(rows, registry.time_ratios(table))
    return markdown + param_counts.render_markdown(table)


def own_data_table(rows, first, dataset, scale, command, floor_record, results_dir):
    """The section of the rows of `first`'s table trained on your `dataset`: ours only, with the
    floor of your splits (`floor_record`, None when it could not be computed)."""
    title = f"{first.paper} {first.table} ({first.dataset}) rows on {dataset.name} ({scale})"
    markdown = tables.render_markdown(rows, title, command, paper_column=False)
    return with_floor(markdown, floor_record, rows, results_dir)


def other_configurations(results_dir):
    """The appendix of REPRODUCTION.md: every run set that the table records under
    `results_dir` keep beside the one their tables show."""
    records = {}
    for table in registry.tables():
        for scale in tables.SCALE_NOTES:
            rows = read_json(pathlib.Path(results_dir) / f"{table}-{scale}.json")
            if rows:
                records[table, scale] = rows
    return tables.render_other_configurations(records)


def with_floor(markdown, record, rows, results_dir, describe=True):
    """`markdown` with the floor's reference rows (`record`, under `results_dir`) when the floor
    read the rows' own splits; unchanged, with the reason printed, when it did not.
    `describe=False`: the note under them names the record only."""
    if record is None:
        return markdown
    try:
        floor.check_examples(record, rows)
    except ValueError as error:
        print(f"floor left out of the table: {error}")
        return markdown
    path = floor.record_path(results_dir, record["key"], record["scale"])
    return floor_rows.add_reference_rows(markdown, record, path, describe)
