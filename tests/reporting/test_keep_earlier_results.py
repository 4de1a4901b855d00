"""Re-rendering a table after training only some of its rows keeps the others' results."""

import json

from gcnn_match.evidence.runs import collect, keep_earlier_results
from gcnn_match.experiments import registry
from gcnn_match.reporting import tables
from tests.reporting.finished_runs import finished_run


def test_rows_without_runs_keep_their_earlier_record_and_its_commands(tmp_path):
    configs = registry.select(table="coin-lcqmc-ablations")[:2]
    first, second = configs
    run = finished_run(tmp_path, 1, [0, 1, 1, 0], [0, 1, 0, 0])
    metrics = json.loads((run / "metrics.json").read_text("utf-8"))
    metrics["dev_accuracy"] = 0.75  # the ablation table's compared metric
    (run / "metrics.json").write_text(json.dumps(metrics), "utf-8")
    (run / "environment.json").write_text(
        json.dumps({"argv": ["experiments/reproduce.py", "--rows=a"]}), "utf-8"
    )
    earlier = collect(configs, {first.name: [], second.name: [run]})
    earlier = json.loads(json.dumps(earlier))  # as read back from results/*.json
    assert earlier[1]["runs"] == 1 and earlier[0]["runs"] == 0

    # A later command trains only the first row: the second keeps its earlier result.
    later = collect(configs, {first.name: [run], second.name: []})
    merged = keep_earlier_results(later, earlier)
    assert merged[0] is later[0]
    assert merged[1] == earlier[1]
    markdown = tables.render_markdown(merged)
    assert markdown.count("| 75.00 |") == 2  # both rows show the run's dev accuracy
    assert "python experiments/reproduce.py --rows=a" in markdown

    # Nothing earlier, or an earlier row that was not run either: the row stays "not run".
    assert keep_earlier_results(later, None)[1]["runs"] == 0
    assert keep_earlier_results(later, [dict(earlier[0], name=second.name)])[1]["runs"] == 0
