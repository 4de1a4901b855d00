"""The generic tsv / csv / jsonl reader: columns by name or index, csv quoting, jsonl keys, the
header decision, and errors that name the file and line."""

import json

import pytest

from gcnn_match.data.own_data_reader import header_decision, read_pairs, read_records
from gcnn_match.data.reading import ReaderError, ReadStats


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_read_pairs_tsv_names_and_indices(tmp_path):
    path = _write(tmp_path / "p.tsv", "id\tleft\tright\ty\n1\tx\ty\tpos\n2\tu\tv\tneg\n")
    labels = {"neg": 0, "pos": 1}
    by_name = list(
        read_pairs(path, a="left", b="right", label="y", uid="id", labels=labels, header=True)
    )
    assert [(ex.a, ex.b, ex.label, ex.uid) for ex in by_name] == [
        ("x", "y", 1, "1"),
        ("u", "v", 0, "2"),
    ]
    by_index = list(read_pairs(path, a=1, b=2, label=3, labels=labels, header=True))
    assert [ex.label for ex in by_index] == [1, 0] and by_index[0].uid == "p.tsv:2"
    unlabelled = list(read_pairs(path, a=1, b=2, header=True))
    assert {ex.label for ex in unlabelled} == {None}


def test_read_pairs_csv_quoting_and_jsonl(tmp_path):
    csv_path = _write(tmp_path / "p.csv", 'q1,q2,dup\n"Hi, you","a ""b""\nc",1\n')
    [example] = read_pairs(csv_path, "csv", a="q1", b="q2", label="dup", header=True)
    assert (example.a, example.b, example.label) == ("Hi, you", 'a "b"\nc', 1)

    jsonl = _write(tmp_path / "p.jsonl", json.dumps({"s": "x", "t": "y", "l": "no"}) + "\n")
    [example] = read_pairs(jsonl, "jsonl", a="s", b="t", label="l", labels={"no": 0})
    assert (example.a, example.b, example.label) == ("x", "y", 0)


def test_read_records_gives_each_line_s_fields_and_checks_their_count(tmp_path):
    path = _write(tmp_path / "p.tsv", "x\ty\t1\n\nu\tv\t0\n")
    assert list(read_records(path)) == [(1, ["x", "y", "1"]), (3, ["u", "v", "0"])]
    path = _write(tmp_path / "cut.tsv", "x\ty\t1\nu\tv\n")
    with pytest.raises(ReaderError, match="cut.tsv:2: 2 tab-separated columns where line 1 has 3"):
        list(read_records(path))


HEADER_CASES = [
    # first line, columns, labels, column names -> header?, reason
    (["q1", "q2", "dup"], dict(a=0, b=1, label=2), {"0", "1"}, None, True, "'dup' is not a label"),
    (["x", "y", "1"], dict(a=0, b=1, label=2), {"0", "1"}, None, False, "'1' is a label"),
    (["x", "y", "5"], dict(a=0, b=1, label=2), {"0", "1"}, None, False, "'5' is a label"),
    (["q1", "q2"], dict(a=0, b=1, label=2), {"0"}, {"a": "q1", "b": "q2"}, True, "names q1, q2"),
    (["x", "y"], dict(a=0, b=1, label=2), {"0"}, {"a": "q1", "b": "q2"}, False, "neither"),
    (["x", "y"], dict(a="q1", b="q2"), None, None, True, "the columns are named"),
]


@pytest.mark.parametrize("row, columns, labels, names, is_header, reason", HEADER_CASES)
def test_header_decision(row, columns, labels, names, is_header, reason):
    decided, why = header_decision(row, columns, labels, names)
    assert decided is is_header and reason in why


def test_read_pairs_header_auto_never_reads_a_header_as_a_pair(tmp_path):
    labels = {"0": 0, "1": 1}
    stats = ReadStats()
    path = _write(tmp_path / "h.tsv", "question1\tquestion2\tis_duplicate\nx\ty\t1\n")
    [example] = read_pairs(path, a=0, b=1, label=2, labels=labels, header="auto", stats=stats)
    assert (example.a, example.label, example.uid) == ("x", 1, "h.tsv:2")
    assert stats.header == "line 1 is a header: its label field 'is_duplicate' is not a label"

    stats = ReadStats()
    path = _write(tmp_path / "p.tsv", "x\ty\t1\n")
    [example] = read_pairs(path, a=0, b=1, label=2, labels=labels, header="auto", stats=stats)
    assert example.uid == "p.tsv:1" and stats.header.startswith("line 1 is read as a pair")

    # Unlabelled (predict): the label column only tells the header; lines may lack it.
    path = _write(tmp_path / "only.tsv", "question1\tquestion2\tis_duplicate\n")
    with pytest.raises(
        ReaderError, match=r"only.tsv:1: no examples \(1 lines read, 0 skipped, 1 h"
    ):
        list(read_pairs(path, a=0, b=1, label=2, labels=labels, header="auto", unlabelled=True))
    path = _write(tmp_path / "two.tsv", "question1\tquestion2\nx\ty\n")
    names = {"a": "question1", "b": "question2", "label": "is_duplicate"}
    [example] = read_pairs(
        path, a=0, b=1, label=2, labels=labels, header="auto", column_names=names, unlabelled=True
    )
    assert (example.a, example.b, example.label) == ("x", "y", None)


def test_read_pairs_errors(tmp_path):
    path = _write(tmp_path / "p.tsv", "left\tright\nx\ty\n")
    with pytest.raises(ReaderError, match=r"p.tsv:1: header has no column 'label'"):
        list(read_pairs(path, a="left", b="right", label="label", header=True))
    with pytest.raises(ReaderError, match=r"p.tsv:2: expected at least 3 tab-separated"):
        list(read_pairs(path, a=0, b=1, label=2, header=True))
    with pytest.raises(ReaderError, match=r"p.tsv:2: unknown label 'y'"):
        list(read_pairs(path, a=0, b=0, label=1, labels={"n": 0}, header=True))
    with pytest.raises(ValueError, match="header=True"):
        read_pairs(path, a="left", b="right")
    with pytest.raises(ValueError, match="jsonl has no header line"):
        read_pairs(path, "jsonl", a="left", b="right", header=True)
    with pytest.raises(ValueError, match="fmt"):
        read_pairs(path, "xml", a=0, b=1)
