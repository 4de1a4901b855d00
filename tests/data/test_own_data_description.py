"""A dataset of your own described by its files: columns, header and labels read from the files,
every mistake a message naming the flag, the file and the line; its description saved and
loaded; the generic path reads the SICK mirror exactly as the registered reader does."""

import json

import pytest

from gcnn_match.data import own_data, registry
from gcnn_match.data.own_data import DescriptionError, describe
from gcnn_match.data.own_data_reader import read_pairs
from gcnn_match.data.registry import DatasetSpec, read_split

HEADER = "question1\tquestion2\tis_duplicate\n"
PAIRS = "how old are you\twhat is your age\t1\nwhere is it\twhen is it\t0\n"


@pytest.fixture
def scratch_registry(monkeypatch):
    """What a test registers is gone afterwards."""
    monkeypatch.setattr(registry, "DATASETS", dict(registry.DATASETS))


def _write(folder, name, text):
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def _describe(*args, **kwargs):
    notes = []
    return describe(*args, log=notes.append, **kwargs), notes


def test_named_columns_resolve_per_file_and_the_labels_come_from_training(tmp_path):
    train = _write(tmp_path, "train.tsv", HEADER + PAIRS)
    # The test file has its columns in another order: each file's header is its own.
    test = _write(tmp_path, "test.tsv", "is_duplicate\tquestion2\tquestion1\n1\tb\ta\n")
    spec, notes = _describe(
        train, test_file=test, name="mine", columns=["question1", "question2", "is_duplicate"]
    )
    assert spec.labels == ("0", "1") and spec.official_splits == ("train", "holdout", "test")
    [train_file] = spec.splits["train"]
    assert train_file.options == {
        "fmt": "tsv",
        "a": 0,
        "b": 1,
        "label": 2,
        "header": True,
        "column_names": {"a": "question1", "b": "question2", "label": "is_duplicate"},
    }
    assert spec.splits["test"][0].options["a"] == 2
    assert notes == [
        f"{train}: line 1 is a header: the columns are named (--header=no reads it as a pair)",
        f"{test}: line 1 is a header: the columns are named (--header=no reads it as a pair)",
    ]
    [example] = read_pairs(test, labels={"0": 0, "1": 1}, **spec.splits["test"][0].options)
    assert (example.a, example.b, example.label) == ("a", "b", 1)


def test_auto_header_by_label_and_labels_sorted_numbers_by_value(tmp_path):
    train = _write(tmp_path, "t.tsv", "a\tb\tstars\nx\ty\t10\nu\tv\t2\nw\tz\t2\nq\tr\t10\n")
    spec, [note] = _describe(train, name="stars")
    assert spec.labels == ("2", "10")
    assert note.endswith(
        "line 1 is a header: its label field 'stars' is not a label "
        "(--header=no reads it as a pair)"
    )
    plain = _write(tmp_path, "p.tsv", "x\ty\tno\nu\tv\tyes\nw\tz\tno\ns\tt\tyes\n")
    spec, [note] = _describe(plain, name="plain")
    assert (
        spec.labels == ("no", "yes") and "read as a pair: its label field 'no' is a label" in note
    )
    assert spec.splits["train"][0].options["header"] is False
    # Declared, the header is not judged and nothing is printed.
    spec, notes = _describe(plain, name="declared", header="no", labels=["yes", "no"])
    assert spec.labels == ("yes", "no") and notes == []


def _pairs(labels):
    return "".join(f"q{i}\tr{i}\t{label}\n" for i, label in enumerate(labels))


def test_a_rare_inferred_label_is_named_with_its_line_and_the_way_to_refuse_it(tmp_path):
    labels = [str(i % 2) for i in range(200)]
    labels[56] = "maybe"  # a typo on line 57
    train = _write(tmp_path, "train.tsv", _pairs(labels))
    spec, [header, warning] = _describe(train, name="typo")
    assert spec.labels == ("0", "1", "maybe") and "read as a pair" in header
    assert warning == (
        f"warning: {train}:57: the label 'maybe' is on 1 of 200 lines, and becomes a class of "
        "its own (labels: 0, 1, maybe); if it is a mistake, correct the line, or refuse it with "
        "--labels=0,1"
    )
    with pytest.raises(DescriptionError, match=f"--labels: {train}:57: label 'maybe' is not one"):
        _describe(train, name="typo", labels=["0", "1"])
    # On more than one line but under 1% of them: named at its first line.
    labels = [str(i % 2) for i in range(300)]
    labels[9] = labels[250] = "2"
    spec, [_, warning] = _describe(_write(tmp_path, "few.tsv", _pairs(labels)), name="few")
    assert spec.labels == ("0", "1", "2")
    assert warning.startswith(f"warning: {tmp_path / 'few.tsv'}:10: the label '2' is on 2 of 300")
    # 1% of the lines or more, or no label more common: nothing to warn of.
    labels[100] = "2"
    _, notes = _describe(_write(tmp_path, "some.tsv", _pairs(labels)), name="some")
    _, tiny = _describe(_write(tmp_path, "tiny.tsv", _pairs(["0", "1"])), name="tiny")
    assert not [note for note in notes + tiny if note.startswith("warning")]


def test_jsonl_keys_and_a_ranking_dataset(tmp_path):
    lines = [
        {"q": "who", "answer": "me", "right": True, "qid": "1"},
        {"q": "who", "answer": "it", "right": False, "qid": "1"},
    ]
    path = _write(tmp_path, "r.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    spec, notes = _describe(
        path,
        name="qa",
        fmt="jsonl",
        columns=["q", "answer", "right"],
        labels=["False", "True"],
        task="ranking",
        group_column="qid",
    )
    assert notes == [] and spec.task == "ranking" and spec.positive_label == 1
    file_spec = spec.splits["train"][0]
    examples = list(
        read_pairs(file_spec.path, labels=spec.label_map(file_spec), **file_spec.options)
    )
    assert [(e.b, e.label, e.group) for e in examples] == [("me", 1, "1"), ("it", 0, "1")]


MISTAKES = [
    # files, keyword arguments -> message
    ({"train": "nope.tsv"}, {}, "--train_file: {tmp}/nope.tsv: no such file; check the path"),
    (
        {"train": HEADER + PAIRS},
        {"columns": ["question1", "q2", "is_duplicate"]},
        "--columns: {tmp}/train.tsv:1: the header has no column 'q2' (columns: question1, "
        "question2, is_duplicate); name one of these, or give 0-based indices",
    ),
    (
        {"train": PAIRS},
        {"columns": ["0", "1", "5"]},
        "--columns: {tmp}/train.tsv:1: column 5 is beyond the line's 3 columns (0-based: 0 to "
        "2); check the index, or --format (read as tsv)",
    ),
    (
        {"train": PAIRS},
        {"labels": ["0", "2"]},
        "--labels: {tmp}/train.tsv:1: label '1' is not one of --labels (0, 2); add it to "
        "--labels, or correct the line",
    ),
    (
        {"train": PAIRS, "test": "a\tb\t1\nc\td\tmaybe\n"},
        {},
        "--test_file: {tmp}/test.tsv:2: label 'maybe' does not occur in the training file "
        "(labels: 0, 1); correct the line, or list every label with --labels",
    ),
    (
        {"train": HEADER + PAIRS},
        {"columns": ["question1", "question2", "is_duplicate"], "header": "no"},
        "--header: --header=no, but --columns names columns (question1, question2, "
        "is_duplicate); give 0-based indices, or --header=yes",
    ),
    (
        {"train": "x\ty\t1\nu\tv\t1\n"},
        {},
        "--train_file: {tmp}/train.tsv: every pair has the label '1'; a model needs two labels",
    ),
    (
        {"train": "x\ty\t1\nu\tv\n"},
        {},
        "--train_file: {tmp}/train.tsv:2: 2 tab-separated columns where line 1 has 3 (a "
        "truncated line or a missing field: complete or remove the line)",
    ),
    (
        {"train": PAIRS},
        {"task": "ranking"},
        "--group_column: a ranking dataset needs the column of each candidate's question",
    ),
    (
        {"train": PAIRS},
        {"name": "quora"},
        "--dataset_name: 'quora' is a registered dataset; give yours another name (--dataset_name)",
    ),
    (
        {"train": PAIRS},
        {"columns": ["0", "1"]},
        "--columns: give the first text, the second text and the label (3 columns), not 2: "
        "e.g. --columns=question1,question2,is_duplicate or 0,1,2",
    ),
]


@pytest.mark.parametrize("files, kwargs, message", MISTAKES)
def test_mistakes_stop_with_the_flag_the_file_the_line_and_the_fix(
    tmp_path, files, kwargs, message
):
    paths = {
        split: _write(tmp_path, f"{split}.tsv", text) if "\t" in text else tmp_path / text
        for split, text in files.items()
    }
    with pytest.raises(DescriptionError) as error:
        describe(
            paths["train"],
            test_file=paths.get("test"),
            log=lambda _: None,
            **{"name": "mine", **kwargs},
        )
    assert str(error.value) == message.format(tmp=tmp_path)


def test_a_description_file_round_trips_with_paths_relative_to_it(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    spec, _ = _describe(_write(data, "train.tsv", HEADER + PAIRS), name="mine")
    path = own_data.save(spec, tmp_path / "descriptions" / "mine.json")
    saved = json.loads(path.read_text())
    assert saved["splits"]["train"][0]["path"] == "../data/train.tsv"
    assert own_data.load(path) == spec
    # Keys that nothing reads (registry.UNREAD_KEYS) are no mistake.
    path.write_text(json.dumps({**saved, "language": "en", "licence": ""}))
    assert own_data.load(path) == spec


LOAD_MISTAKES = [
    ('{"name": "mine",', "{path}:1:17: not JSON (Expecting property name enclosed in double"),
    ("[1]", "{path}: the description must be a JSON object, not list"),
    (
        '{"name": "x", "task": "classification", "labels": [], "splits": {}, "splitz": 1}',
        "{path}: the description: unknown key 'splitz' (keys: name, description",
    ),
    (
        '{"name": "x", "task": "classification", "splits": {}}',
        "{path}: the description: missing key 'labels'",
    ),
    (
        '{"name": "x", "task": "classification", "labels": ["a", "b"], '
        '"splits": {"train": [{"path": "t.tsv", "format": "xml"}]}}',
        "{path}: split 'train': unknown format 'xml' (formats: bimpm_tsv, columns",
    ),
    (
        '{"name": "x", "task": "classification", "labels": ["a", "b"], "splits": {"train": '
        '[{"path": "t.tsv", "format": "columns", "options": {"colums": 1}}]}}',
        "{path}: the options of split 'train': unknown key 'colums' (keys: a, b, column_names",
    ),
]


@pytest.mark.parametrize("text, message", LOAD_MISTAKES)
def test_a_description_file_that_does_not_parse_says_where_and_how_to_fix_it(
    tmp_path, text, message
):
    path = _write(tmp_path, "mine.json", text)
    with pytest.raises(DescriptionError) as error:
        own_data.load(path)
    assert str(error.value).startswith("--dataset_file: " + message.format(path=path))
    assert str(error.value).endswith("fix it, or write it again with train.py --write_dataset_file")
    with pytest.raises(DescriptionError, match="--dataset_file: .*absent.json: no such file"):
        own_data.load(tmp_path / "absent.json")


def test_input_layout_is_the_training_file_s_unless_flags_say_otherwise(tmp_path):
    spec, _ = _describe(
        _write(tmp_path, "train.csv", "x,y,l\na,b,0\nc,d,1\n"),
        name="mine",
        fmt="csv",
        columns=["x", "y", "l"],
    )
    names = {"a": "x", "b": "y", "label": "l"}
    assert own_data.input_layout(spec, {"fmt": None}) == {
        "fmt": "csv",
        "a": 0,
        "b": 1,
        "label": 2,
        "column_names": names,
    }
    assert own_data.input_layout(spec, {"a": 3}) == {"fmt": "csv", "a": 3, "b": 1, "label": 2}
    quora = registry.get_dataset("quora")
    assert own_data.input_layout(quora, {}) == own_data.PLAIN_INPUT


def test_the_generic_path_reads_the_sick_mirror_as_the_registered_reader(shared_data):
    for split in ("train", "dev", "test"):
        path, _ = registry.resolve_split("sick", split, shared_data)
        spec, _ = _describe(path, name=f"sick_{split}", labels=["0", "1", "2"])
        file_spec = spec.splits["train"][0]
        generic = read_pairs(file_spec.path, labels=spec.label_map(file_spec), **file_spec.options)
        assert list(generic) == list(read_split("sick", split, shared_data))


def test_a_description_is_a_dataset_spec_like_the_registered_ones(tmp_path, scratch_registry):
    spec, _ = _describe(_write(tmp_path, "train.tsv", PAIRS), name="mine")
    registry.register_dataset(spec)
    assert [e.a for e in read_split("mine", "train", "unused")] == [
        "how old are you",
        "where is it",
    ]
    assert DatasetSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec
