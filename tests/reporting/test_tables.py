"""Rendering rules of the paper-vs-ours tables: a row shows one configuration, a time ratio
compares only runs of one machine and one command, and nothing is said twice."""

import json

import numpy as np
import pytest

from gcnn_match.evidence.runs import collect, keep_earlier_results
from gcnn_match.experiments import registry
from gcnn_match.reporting import tables
from gcnn_match.reporting.time_ratios import render_time_ratios

XEON, EPYC = "Intel Xeon", "AMD EPYC"
COMMAND = ["experiments/reproduce.py", "--dataset=quora"]
CAPPED = ["experiments/reproduce.py", "--dataset=quora", "--epochs=3"]


def _config(name):
    return registry.get(f"gcnn/quora/{name}")


def _run(root, name, seed, accuracy, cap=None, argv=COMMAND, cpu=XEON, seconds=10.0):
    """A finished run directory as `reproduce.py` lays it out."""
    config = _config(name)
    run = root / config.name / (f"low-resource-seed{seed}" + (f"-epochs{cap}" if cap else ""))
    run.mkdir(parents=True)
    epochs = cap or config.epochs
    files = {
        "config.json": {"name": config.name, "seed": seed, "epochs": epochs},
        "environment.json": {"cpu": cpu, "cpu_count": 2, "gpus": [], "argv": argv},
        "metrics.json": {
            "seed": seed,
            "scale": "low-resource",
            "embeddings": "glove-6b-50d-packaged: 50d",
            "examples": {"train": 9000, "dev": 1000, "test": 10000},
            "trainable_params": 10,
            "trainable_params_without_embeddings": 5,
            "epochs_run": epochs,
            "best_epoch": 2,
            "seconds_per_epoch": seconds,
            "test_accuracy": accuracy,
        },
    }
    for file, content in files.items():
        (run / file).write_text(json.dumps(content), "utf-8")
    return run


def _rows(runs_by_name):
    """collect() over CNN and GCNN, as read back from a results/*.json record."""
    configs = [_config("cnn"), _config("gcnn")]
    rows = collect(configs, {c.name: runs_by_name.get(c.name.split("/")[-1], []) for c in configs})
    return json.loads(json.dumps(rows))


def _record_before_provenance(row):
    """A row as a format-1 record holds it: without record_format, configuration and
    provenance, one machine and the row's commands for all its seeds."""
    format_2 = ("record_format", "configuration", "epoch_cap", "provenance")
    row = {k: v for k, v in row.items() if k not in format_2}
    return dict(row, hardware=f"{XEON} (2 cores)", commands=["python experiments/reproduce.py"])


def test_a_row_shows_its_most_complete_configuration_and_lists_the_others(tmp_path):
    committed = _rows({"cnn": [_run(tmp_path / "a", "cnn", s, 0.75 + s / 100) for s in (1, 2, 3)]})
    committed = [_record_before_provenance(row) for row in committed]
    newcomer = _rows({"cnn": [_run(tmp_path / "b", "cnn", 1, 0.70, cap=3, argv=CAPPED)]})

    [cnn, gcnn] = keep_earlier_results(newcomer, committed)
    assert cnn["seeds"] == [1, 2, 3] and cnn["test_accuracy"][0] == pytest.approx(0.77)
    [other] = cnn["other_configurations"]
    assert other["seeds"] == [1] and other["epoch_cap"] == 3
    assert gcnn["runs"] == 0
    markdown = tables.render_markdown([cnn, gcnn])
    assert "| CNN | 87.92 | 77.00 ± 1.00 |" in markdown
    assert "Other configurations of these rows, kept in `results/gcnn-quora-low-resource.json`" in (
        markdown
    )
    assert (
        "- CNN: seed 1, at most 3 epochs (best / run epochs 2/3): test accuracy 70.00, "
        "10.0 s/epoch; on Intel Xeon (2 cores); trained by "
        "`python experiments/reproduce.py --dataset=quora --epochs=3`"
    ) in markdown
    # Only the commands of the shown runs are listed as having trained the table.
    assert "- Trained by: `python experiments/reproduce.py`\n" in markdown

    # The record keeps both, so rendering it again (with no runs at hand) shows the same.
    again = keep_earlier_results(_rows({}), json.loads(json.dumps([cnn, gcnn])))
    assert tables.render_markdown(again) == markdown


def test_the_registered_schedule_wins_over_an_epoch_cap_at_equal_seeds(tmp_path):
    capped = _rows({"cnn": [_run(tmp_path / "a", "cnn", 1, 0.76, cap=6)]})
    registered = _rows({"cnn": [_run(tmp_path / "b", "cnn", 1, 0.74)]})
    for earlier, later in ((capped, registered), (registered, capped)):
        [cnn, _] = keep_earlier_results(later, earlier)
        assert cnn["epoch_cap"] is None and cnn["test_accuracy"][0] == 0.74
        assert [o["epoch_cap"] for o in cnn["other_configurations"]] == [6]


def test_runs_of_one_configuration_replace_their_record_unless_it_has_more_seeds(tmp_path):
    runs = [_run(tmp_path, "cnn", s, 0.75 + s / 100) for s in (1, 2, 3)]
    three = _rows({"cnn": runs})
    # Re-rendered with the default --seeds=1: seed 1 alone neither hides nor doubles the three.
    [cnn, _] = keep_earlier_results(_rows({"cnn": runs[:1]}), three)
    assert cnn["seeds"] == [1, 2, 3] and "other_configurations" not in cnn
    # The same seeds trained again (a fix, another machine) replace the recorded ones.
    rerun = _rows({"cnn": [_run(tmp_path / "b", "cnn", s, 0.80) for s in (1, 2, 3)]})
    [cnn, _] = keep_earlier_results(rerun, three)
    assert cnn["test_accuracy"][0] == pytest.approx(0.80) and "other_configurations" not in cnn
    # A record written before runs kept their configuration: the same runs are not listed twice.
    old = [_record_before_provenance(row) for row in three]
    [cnn, _] = keep_earlier_results(three, old)
    assert "provenance" in cnn and "other_configurations" not in cnn


def _ratio(markdown, pair="GCNN / CNN"):
    """The item of `pair` in the one line of time ratios: "GCNN / CNN 1.32 / 2.50"."""
    [line] = [line for line in markdown.splitlines() if line.startswith("- Time ratios")]
    items = line.removeprefix("- Time ratios, paper / ours: ").removesuffix(".").split("; ")
    return next(item for item in items if item.startswith(f"{pair} "))


def test_a_time_ratio_compares_only_runs_of_one_machine_and_one_command(tmp_path):
    pairs = registry.time_ratios("gcnn-quora")

    def ratio(cnn, gcnn):
        return _ratio(render_time_ratios(_rows({"cnn": cnn, "gcnn": gcnn}), pairs))

    cnn = [_run(tmp_path / "a", "cnn", s, 0.75, seconds=10.0) for s in (1, 2)]
    gcnn = [_run(tmp_path / "a", "gcnn", s, 0.76, seconds=25.0) for s in (1, 2)]
    assert ratio(cnn, gcnn) == "GCNN / CNN 1.32 / 2.50"

    elsewhere = [_run(tmp_path / "b", "gcnn", s, 0.76, cpu=EPYC) for s in (1, 2)]
    assert ratio(cnn, elsewhere) == "GCNN / CNN 1.32 / – (runs from different machines)"
    capped = [_run(tmp_path / "c", "gcnn", s, 0.76, cap=3, argv=CAPPED) for s in (1, 2)]
    assert ratio(cnn, capped) == "GCNN / CNN 1.32 / – (runs from different commands)"
    assert ratio(cnn, gcnn[:1]) == "GCNN / CNN 1.32 / – (runs of different seeds)"
    assert ratio(cnn, []) == "GCNN / CNN 1.32 / not run"

    # Records written before runs kept their provenance: one command per row is enough.
    rows = [_record_before_provenance(r) for r in _rows({"cnn": cnn, "gcnn": gcnn})]
    assert _ratio(render_time_ratios(rows, pairs)) == "GCNN / CNN 1.32 / 2.50"
    rows[1]["commands"].append("python experiments/reproduce.py --seeds=1,2")
    assert _ratio(render_time_ratios(rows, pairs)) == (
        "GCNN / CNN 1.32 / – (which command trained each run is not recorded)"
    )


def test_every_machine_is_named_once_on_one_line(tmp_path):
    one = _rows({"cnn": [_run(tmp_path / "a", "cnn", 1, 0.75)]})
    one += _rows({"gcnn": [_run(tmp_path / "a", "gcnn", 1, 0.75)]})[1:]
    markdown = tables.render_markdown(one)
    assert markdown.count("Our hardware") == 1
    assert "- Our hardware: Intel Xeon (2 cores); paper timings are from its own GPU." in markdown

    two = one[:1] + _rows({"gcnn": [_run(tmp_path / "b", "gcnn", 1, 0.75, cpu=EPYC)]})[1:]
    markdown = tables.render_markdown(two)
    assert markdown.count("Our hardware") == 1
    assert "- Our hardware: Intel Xeon (2 cores) for CNN; AMD EPYC (2 cores) for GCNN;" in markdown


def test_the_table_lists_every_command_that_trained_its_shown_runs(tmp_path):
    runs = [_run(tmp_path, "cnn", 1, 0.75), _run(tmp_path, "cnn", 2, 0.76, argv=COMMAND + ["-s"])]
    markdown = tables.render_markdown(_rows({"cnn": runs}))
    assert (
        "- Trained by: `python experiments/reproduce.py --dataset=quora`; "
        "`python experiments/reproduce.py --dataset=quora -s`\n"
    ) in markdown


def test_each_sentence_of_the_paper_notes_is_printed_once():
    rows = collect(registry.select(table="attconv-snli"), {})
    markdown = tables.render_markdown(rows)
    notes = [line for line in markdown.splitlines() if line.startswith("- Paper numbers")]
    # A sentence shared by several rows is printed once, naming the rows when not all share it.
    assert markdown.count("SNLI test accuracy % and #para (Table 7).") == 1
    sentences = [s for line in notes for s in line.split(": ", 1)[1].split(". ")]
    assert len(sentences) == len(set(sentences))


def _cell(markdown, row, column):
    """The cell of `column` in `row`'s line of the first table of `markdown`."""
    lines = markdown.splitlines()
    head = next(line for line in lines if line.startswith("| row |"))
    line = next(line for line in lines if line.startswith(f"| {row} |"))
    columns = [c.strip() for c in head.split("|")]
    return [c.strip() for c in line.split("|")][columns.index(column)]


def test_each_row_shows_the_epochs_its_seeds_ran_against_the_registered_schedule(tmp_path):
    capped = [_run(tmp_path / "a", "cnn", s, 0.75, cap=3, argv=CAPPED) for s in (1, 2)]
    registered = [_run(tmp_path / "a", "gcnn", 1, 0.76)]
    markdown = tables.render_markdown(_rows({"cnn": capped, "gcnn": registered}))
    assert _cell(markdown, "CNN", "best / run epochs") == "2/3, 2/3"
    assert _cell(markdown, "CNN", "run / registered epochs") == "3 / 20 (cap 3)"
    assert _cell(markdown, "GCNN", "run / registered epochs") == "20 / 20"
    not_run = tables.render_markdown(_rows({"cnn": capped}))
    assert _cell(not_run, "GCNN", "run / registered epochs") == "–"


def test_a_record_that_predates_the_epoch_cap_tells_it_by_its_commands(tmp_path):
    [row] = _rows({"cnn": [_run(tmp_path, "cnn", s, 0.75, cap=6) for s in (1, 2)]})[:1]
    row = _record_before_provenance(row)

    def shown(commands, epochs_run=(6, 5)):
        record = dict(row, commands=commands, epochs_run=list(epochs_run))
        return _cell(tables.render_markdown([record]), "CNN", "run / registered epochs")

    assert shown(["python experiments/reproduce.py --epochs=6 --seeds=1,2"]) == "5–6 / 20 (cap 6)"
    assert shown(["python experiments/reproduce.py --override=epochs=4 --epochs=6"]) == (
        "5–6 / 20 (cap 4)"
    )
    # No --epochs: the registered schedule (early stopping ended the runs sooner).
    assert shown(["python experiments/reproduce.py"], (12, 9)) == "9–12 / 20"
    # Two caps, and which seed each trained is not recorded: never a guess.
    two = ["python experiments/reproduce.py --epochs=6", "python experiments/reproduce.py"]
    assert shown(two) == "5–6 / 20 (cap unknown)"
    assert shown([]) == "5–6 / 20 (cap unknown)"


def test_the_notes_say_once_that_plus_minus_is_the_sample_standard_deviation(tmp_path):
    one_seed = tables.render_markdown(_rows({"cnn": [_run(tmp_path / "a", "cnn", 1, 0.75)]}))
    assert "±" not in one_seed and one_seed.count("- Epochs: *best / run*") == 1
    runs = [_run(tmp_path / "b", "cnn", s, 0.70 + s / 100) for s in (1, 2, 3)]
    markdown = tables.render_markdown(_rows({"cnn": runs}))
    # 0.71, 0.72, 0.73: the sample standard deviation is 1.00 point (the population one 0.82).
    assert _cell(markdown, "CNN", "ours: test accuracy") == "72.00 ± 1.00"
    assert markdown.count("- ±: the sample standard deviation (n − 1 in the denominator)") == 1


def test_at_equal_seeds_a_rerun_in_another_configuration_shows_and_the_earlier_is_listed(tmp_path):
    # e.g. the earlier runs read 50-d vectors, the rerun the paper's width, both 3 seeds, capped.
    earlier = _rows({"cnn": [_run(tmp_path / "a", "cnn", s, 0.70, cap=2) for s in (1, 2, 3)]})
    rerun = [_run(tmp_path / "b", "cnn", s, 0.75, cap=2) for s in (1, 2, 3)]
    for run in rerun:
        run.rename(run.with_name(run.name + "-e100"))
    rerun = _rows({"cnn": [run.with_name(run.name + "-e100") for run in rerun]})
    [cnn, _] = keep_earlier_results(rerun, earlier)
    assert cnn["test_accuracy"][0] == pytest.approx(0.75)
    assert [o["test_accuracy"][0] for o in cnn["other_configurations"]] == [pytest.approx(0.70)]


def test_seeds_of_one_configuration_trained_on_different_machines_make_one_run_set(tmp_path):
    """Seeds 1 and 2 trained on one machine, 3 on another that does not have their run
    directories: the row shows the three seeds, their mean and each seed's command."""
    first = _rows({"cnn": [_run(tmp_path / "a", "cnn", s, 0.70 + s / 100) for s in (1, 2)]})
    later_argv = COMMAND + ["--seeds=3"]
    third = _rows({"cnn": [_run(tmp_path / "b", "cnn", 3, 0.80, argv=later_argv)]})
    [cnn, _] = keep_earlier_results(third, first)
    assert cnn["seeds"] == [1, 2, 3] and cnn["runs"] == 3
    assert cnn["test_accuracy"][0] == pytest.approx((0.71 + 0.72 + 0.80) / 3)
    assert cnn["test_accuracy"][1] == pytest.approx(np.std([0.71, 0.72, 0.80], ddof=1))
    assert [p["command"] for p in cnn["provenance"]] == [
        "python experiments/reproduce.py --dataset=quora"
    ] * 2 + ["python experiments/reproduce.py --dataset=quora --seeds=3"]
    assert "other_configurations" not in cnn
    # Rendered again from the record alone, and after a rerun of seed 3, still three seeds.
    record = json.loads(json.dumps([cnn, _]))
    [again, _] = keep_earlier_results(_rows({}), record)
    assert again["seeds"] == [1, 2, 3]
    rerun = _rows({"cnn": [_run(tmp_path / "c", "cnn", 3, 0.74)]})
    [cnn, _] = keep_earlier_results(rerun, record)
    assert cnn["test_accuracy"][0] == pytest.approx((0.71 + 0.72 + 0.74) / 3)
    # A run set recorded before per-seed results cannot be joined: other seeds stay beside it.
    before = [{k: v for k, v in row.items() if k != "per_seed"} for row in first]
    [cnn, _] = keep_earlier_results(third, before)
    assert cnn["seeds"] == [1, 2] and cnn["other_configurations"][0]["seeds"] == [3]
    # Another configuration is not joined: it stays a run set of its own.
    capped = _rows({"cnn": [_run(tmp_path / "d", "cnn", 4, 0.6, cap=3, argv=CAPPED)]})
    [cnn, _] = keep_earlier_results(capped, record)
    assert cnn["seeds"] == [1, 2, 3] and cnn["other_configurations"][0]["seeds"] == [4]


def test_a_report_section_leaves_its_notes_to_the_report_and_others_to_its_appendix(tmp_path):
    committed = _rows({"cnn": [_run(tmp_path / "a", "cnn", s, 0.75 + s / 100) for s in (1, 2, 3)]})
    newcomer = _rows({"cnn": [_run(tmp_path / "b", "cnn", 1, 0.70, cap=3, argv=CAPPED)]})
    [cnn, gcnn] = keep_earlier_results(newcomer, committed)

    section = tables.render_markdown([cnn, gcnn], notes=False)
    assert "| CNN | 87.92 | 77.00 ± 1.00 |" in section
    assert "- Machine: Intel Xeon (2 cores)." in section
    for note in ("- Scale:", "- Epochs:", "- ±:", "- Paper numbers", "Other configurations"):
        assert note not in section

    appendix = tables.render_other_configurations({("gcnn-quora", "low-resource"): [cnn, gcnn]})
    assert (
        "| `gcnn-quora-low-resource` | CNN | 50d vectors, 3 / 20 (cap 3) epochs | 1 "
        "| Intel Xeon (2 cores) | test accuracy 70.00 | 1 seed against 3 |"
    ) in appendix
    assert tables.render_other_configurations({("gcnn-quora", "low-resource"): [gcnn]}) == ""
    # The width is the one read, not the one in the source's name.
    padded = {**cnn["other_configurations"][0], "embeddings": "glove-6b-50d-packaged: 50d padded"}
    padded["embeddings"] += " to 300d (OOV init), 96.5% of tokens"
    appendix = tables.render_other_configurations(
        {("gcnn-quora", "low-resource"): [{**cnn, "other_configurations": [padded]}]}
    )
    assert "| CNN | 50d padded to 300d vectors, 3 / 20 (cap 3) epochs |" in appendix


def test_a_report_section_puts_commands_that_differ_in_their_seeds_on_one_line(tmp_path):
    runs = [
        _run(tmp_path, "cnn", seed, 0.75, argv=COMMAND + [f"--seeds={seed}"]) for seed in (1, 2, 3)
    ]
    section = tables.render_markdown(_rows({"cnn": runs}), notes=False)
    assert (
        "- Trained by: `python experiments/reproduce.py --dataset=quora --seeds=1`, "
        "and the same with `--seeds=2`, `--seeds=3`\n"
    ) in section


def test_vectors_every_row_shares_are_said_once_under_the_table(tmp_path):
    cnn = [_run(tmp_path / "a", "cnn", 1, 0.75)]
    gcnn = [_run(tmp_path / "a", "gcnn", 1, 0.76)]
    for notes in (True, False):
        markdown = tables.render_markdown(_rows({"cnn": cnn, "gcnn": gcnn}), notes=notes)
        head = next(line for line in markdown.splitlines() if line.startswith("| row |"))
        assert "vectors" not in head and head.endswith("| data (train/dev/test) |")
        assert markdown.count("- Vectors: glove-6b-50d-packaged (50d).") == 1
    # A row that read other vectors: the column stays and says each row's.
    metrics = gcnn[0] / "metrics.json"
    wider = json.loads(metrics.read_text("utf-8"))
    wider["embeddings"] = "glove-6b-50d-packaged: 50d padded to 300d"
    metrics.write_text(json.dumps(wider), "utf-8")
    markdown = tables.render_markdown(_rows({"cnn": cnn, "gcnn": gcnn}), notes=False)
    assert "- Vectors:" not in markdown
    assert _cell(markdown, "CNN", "vectors") == "glove-6b-50d-packaged (50d)"
    assert _cell(markdown, "GCNN", "vectors") == "glove-6b-50d-packaged (50d padded to 300d)"
