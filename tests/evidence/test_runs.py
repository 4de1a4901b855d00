"""A results table's record: the run sets `collect` writes name their format, and `upgrade`
reads a format-1 run set (one machine, the row's commands) as the current format."""

from gcnn_match.evidence import runs
from tests.reporting.test_tables import COMMAND, EPYC, _rows, _run

FORMAT_1 = {
    "runs": 2,
    "seeds": [1, 2],
    "hardware": "Intel Xeon (2 cores)",
    "commands": ["python experiments/reproduce.py --epochs=6"],
    "epochs_run": [6, 6],
}


def test_collected_run_sets_name_their_format_and_rows_not_run_carry_none(tmp_path):
    cnn, gcnn = _rows({"cnn": [_run(tmp_path, "cnn", 1, 0.75)]})
    assert cnn["record_format"] == runs.RECORD_FORMAT
    assert "record_format" not in gcnn and gcnn["runs"] == 0
    assert runs.upgrade(cnn) == cnn


def test_a_format_1_run_set_gives_each_seed_its_machine_and_the_row_s_one_command():
    upgraded = runs.upgrade(FORMAT_1)
    assert upgraded["record_format"] == runs.RECORD_FORMAT and "hardware" not in upgraded
    assert upgraded["provenance"] == [
        {"seed": s, "machine": "Intel Xeon (2 cores)", "command": FORMAT_1["commands"][0]}
        for s in (1, 2)
    ]
    assert runs.machines(upgraded) == ["Intel Xeon (2 cores)"]
    assert runs.commands(upgraded) == FORMAT_1["commands"]
    assert runs.epoch_cap(upgraded, registered=20) == 6
    assert runs.upgrade(upgraded) == upgraded


def test_a_format_1_run_set_of_several_commands_knows_no_seed_s_command():
    several = dict(FORMAT_1, commands=["python a.py --epochs=3", "python b.py"], hardware=None)
    upgraded = runs.upgrade(several)
    assert [p["command"] for p in upgraded["provenance"]] == [None, None]
    assert runs.commands(upgraded) == several["commands"]
    assert runs.machines(upgraded) == ["not recorded"]
    assert runs.epoch_cap(upgraded, registered=20) == runs.UNKNOWN_CAP


def test_a_row_s_other_configurations_are_upgraded_with_it(tmp_path):
    [cnn, _] = _rows({"cnn": [_run(tmp_path, "cnn", 1, 0.75, cpu=EPYC)]})
    row = dict(cnn, other_configurations=[FORMAT_1])
    upgraded = runs.upgrade(row)
    assert upgraded["provenance"] == cnn["provenance"]
    assert upgraded["other_configurations"] == [runs.upgrade(FORMAT_1)]
    assert runs.commands(upgraded) == ["python " + " ".join(COMMAND)]
    assert runs.machines(upgraded) == [f"{EPYC} (2 cores)"]
