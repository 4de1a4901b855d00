"""Readers: exact counts on the real files, every format on small fixtures, and errors that name
the file and line."""

import collections
import gzip
import json

import pytest

from gcnn_match.data import readers
from gcnn_match.data.reading import ReaderError, ReadStats
from gcnn_match.data.registry import read_split


def _write(path, text, compress=False):
    data = text.encode("utf-8") if isinstance(text, str) else text
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


def _labels(examples):
    return collections.Counter(ex.label for ex in examples)


# --- real files (counts from each SOURCE.md table) -------------------------------------------

REAL = [
    # dataset, split, lines, label counts by index, skipped
    ("snli", "dev", 10000, {0: 3329, 1: 3235, 2: 3278}, {"gold_label '-'": 158}),
    ("snli", "test", 10000, {0: 3368, 1: 3219, 2: 3237}, {"gold_label '-'": 176}),
    ("quora", "dev", 10000, {0: 5000, 1: 5000}, {}),
    ("quora", "test", 10000, {0: 5000, 1: 5000}, {}),
    ("scitail", "dev", 1304, {0: 657, 1: 647}, {}),
    ("scitail", "test", 2126, {0: 842, 1: 1284}, {}),
    ("lcqmc", "dev", 8802, {0: 4400, 1: 4402}, {}),
    ("lcqmc", "test", 12500, {0: 6250, 1: 6250}, {}),
    ("sick", "train", 4439, {0: 1274, 1: 2524, 2: 641}, {}),
    ("fever", "paper_dev", 9999, {0: 3333, 1: 3333, 2: 3333}, {}),
    ("wikiqa", "train", 20360, {0: 19320, 1: 1040}, {}),
]


@pytest.mark.parametrize(
    "name,split,lines,labels,skipped", REAL, ids=[f"{r[0]}-{r[1]}" for r in REAL]
)
def test_real_split_counts(shared_data, name, split, lines, labels, skipped):
    stats = ReadStats()
    examples = list(read_split(name, split, shared_data, stats))
    assert stats.lines == lines
    assert dict(_labels(examples)) == labels
    assert stats.skipped == skipped
    assert stats.examples == len(examples) == lines - sum(skipped.values())
    assert len({ex.uid for ex in examples}) == len(examples)


@pytest.mark.parametrize("split,lines", [("dev", 495), ("test", 4906)])
def test_real_sick_dev_test_lines(shared_data, split, lines):
    stats = ReadStats()
    assert sum(1 for _ in read_split("sick", split, shared_data, stats)) == lines


def test_snli_summary_and_pos_tags(shared_data):
    stats = ReadStats()
    examples = list(read_split("snli", "dev", shared_data, stats))
    assert stats.summary() == "snli_1.0_dev.jsonl.gz: 9842 examples, skipped 158 (gold_label '-')"
    first = examples[0]
    assert first.uid == "4705552913.jpg#2r1n"
    assert first.a_tokens[:3] == ("Two", "women", "are")
    assert first.a_pos[:3] == ("CD", "NNS", "VBP")
    for ex in examples:
        assert len(ex.a_tokens) == len(ex.a_pos) and len(ex.b_tokens) == len(ex.b_pos)
        # Every Penn tag is an upper-case tag or punctuation, never a word.
        assert all(tag.isupper() or not tag.isalnum() for tag in ex.a_pos + ex.b_pos)


def test_wikiqa_groups(shared_data):
    examples = list(read_split("wikiqa", "train", shared_data))
    groups = {ex.group for ex in examples}
    assert len(groups) == 2118
    assert len({ex.group for ex in examples if ex.label == 1}) == 873
    assert all(ex.group == ex.a for ex in examples)


def test_fever_claims_evidence(shared_data):
    path = shared_data / "fever" / "paper_dev.jsonl.gz"
    claims = list(readers.read_fever_claims(path))
    assert len(claims) == 9999
    nei = [c for c in claims if c.label == "NOT ENOUGH INFO"]
    assert len(nei) == 3333 and all(c.evidence == () for c in nei)
    soul_food = next(c for c in claims if c.id == 137334)
    assert soul_food.evidence[0] == (("Soul_Food_-LRB-film-RRB-", 0),)
    assert all(c.evidence for c in claims if c.label != "NOT ENOUGH INFO")


# --- each format on a fixture ------------------------------------------------------------------

NLI_LINE = {
    "gold_label": "entailment",
    "pairID": "p1",
    "sentence1": "A dog runs.",
    "sentence2": "An animal moves.",
    "sentence1_parse": "(ROOT (S (NP (DT A) (NN dog)) (VP (VBZ runs)) (. .)))",
    "sentence2_binary_parse": "( ( An animal ) ( moves . ) )",
}


def test_nli_jsonl_tokens_from_parses_and_unlabelled(tmp_path):
    lines = [NLI_LINE, dict(NLI_LINE, pairID="p2", gold_label="-"), dict(NLI_LINE, pairID="p3")]
    path = _write(tmp_path / "x.jsonl.gz", "\n".join(map(json.dumps, lines)) + "\n", compress=True)
    stats = ReadStats()
    examples = list(
        readers.read_nli_jsonl(path, labels={"entailment": 0, "neutral": 1}, stats=stats)
    )
    assert [ex.uid for ex in examples] == ["p1", "p3"]
    assert examples[0].a_tokens == ("A", "dog", "runs", ".")
    assert examples[0].a_pos == ("DT", "NN", "VBZ", ".")
    assert examples[0].b_tokens == ("An", "animal", "moves", ".") and examples[0].b_pos is None
    assert stats.skipped == {"gold_label '-'": 1}
    hidden = list(readers.read_nli_jsonl(path, unlabelled=True))
    assert len(hidden) == 3 and {ex.label for ex in hidden} == {None}
    # One string object per distinct token and tag, across lines and parse kinds.
    first, last = examples
    assert first.a_tokens[1] is last.a_tokens[1] and first.a_pos[1] is last.a_pos[1]
    assert first.b_tokens[3] is first.a_tokens[3]


def test_bimpm_scitail_yelp_fever_formats(tmp_path):
    bimpm = _write(tmp_path / "train.tsv", "1\tHow ?\tWhat ?\t7\n0\tA\tB\t8\n")
    assert [(ex.label, ex.uid) for ex in readers.read_bimpm_tsv(bimpm)] == [(1, "7"), (0, "8")]

    scitail = _write(tmp_path / "s.tsv", "p1\th1\tentails\np2\th2\tneutral\n")
    assert [ex.label for ex in readers.read_scitail_tsv(scitail)] == [0, 1]

    stars = {str(i): i - 1 for i in range(1, 6)}
    yelp = _write(tmp_path / "yelp_test_2000", "5 great food here\n1\tawful\n")
    examples = list(readers.read_yelp_tsv(yelp, labels=stars))
    assert [(ex.label, ex.a, ex.b) for ex in examples] == [
        (4, "great food here", "great food here"),
        (0, "awful", "awful"),
    ]
    yelp_json = _write(
        tmp_path / "y.jsonl", json.dumps({"review_id": "r1", "stars": 3.0, "text": "ok"}) + "\n"
    )
    assert [(ex.label, ex.uid) for ex in readers.read_yelp_jsonl(yelp_json, labels=stars)] == [
        (2, "r1")
    ]

    fever = _write(
        tmp_path / "f.jsonl",
        json.dumps({"id": 5, "label": "REFUTES", "claim": "C.", "evidence": [[[1, 2, "Page", 3]]]})
        + "\n",
    )
    [example] = readers.read_fever_jsonl(fever)
    assert (example.a, example.b, example.label, example.group) == ("C.", "", 1, "5")


def test_wikiqa_official_tsv_with_header(tmp_path):
    header = "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel\n"
    path = _write(
        tmp_path / "WikiQA-dev.tsv",
        header + "Q1\tWho?\tD1\tT\tD1-0\tHim.\t1\nQ1\tWho?\tD1\tT\tD1-1\tNo.\t0\n",
    )
    examples = list(readers.read_wikiqa_tsv(path))
    assert [(ex.uid, ex.group, ex.label) for ex in examples] == [
        ("D1-0", "Q1", 1),
        ("D1-1", "Q1", 0),
    ]


# --- errors name the file and the line ---------------------------------------------------------


@pytest.mark.parametrize(
    "reader,content,line,reason",
    [
        (
            readers.read_pair_label_tsv,
            "a\tb\t0\na\tb\n",
            2,
            "expected 3 tab-separated columns, found 2",
        ),
        (
            readers.read_pair_label_tsv,
            "a\tb\t0\na\tb\tmaybe\n",
            2,
            "label 'maybe' is not a class index",
        ),
        (readers.read_nli_jsonl, json.dumps(NLI_LINE) + "\n{not json\n", 2, "invalid JSON"),
        (readers.read_nli_jsonl, "{}\n", 1, "missing key 'gold_label'"),
        (
            readers.read_fever_jsonl,
            '{"id": 1, "claim": "c", "label": "MAYBE"}\n',
            1,
            "unknown label 'MAYBE'",
        ),
        (readers.read_pair_label_tsv, b"a\tb\t0\n\xff\xfe\tb\t1\n", 2, "not UTF-8"),
        (readers.read_pair_label_tsv, "", 0, "no examples (0 lines read, 0 skipped)"),
        (readers.read_pair_label_tsv, "\n\n", 2, "no examples (2 lines read, 2 skipped)"),
    ],
    ids=["columns", "label", "json", "key", "fever-label", "utf8", "empty", "blank"],
)
def test_malformed_input_names_file_and_line(tmp_path, reader, content, line, reason):
    path = _write(tmp_path / "bad.txt", content)
    with pytest.raises(ReaderError) as info:
        list(reader(path))
    assert str(info.value).startswith(f"{path}:{line}: {reason}")
    assert info.value.line == line


def test_unknown_label_lists_known_ones(tmp_path):
    path = _write(tmp_path / "bad.tsv", "a\tb\tmaybe\n")
    with pytest.raises(ReaderError, match=r"bad.tsv:1: unknown label 'maybe' \(known: 'no', 'yes'"):
        list(readers.read_pair_label_tsv(path, labels={"no": 0, "yes": 1}))


def test_corrupt_gzip(tmp_path):
    path = _write(tmp_path / "bad.txt.gz", gzip.compress(b"a\tb\t0\n" * 100)[:-30])
    with pytest.raises(ReaderError, match="corrupt gzip"):
        list(readers.read_pair_label_tsv(path))


def test_blank_lines_are_counted(tmp_path):
    stats = ReadStats()
    path = _write(tmp_path / "x.tsv", "a\tb\t0\n\nc\td\t1\n")
    assert len(list(readers.read_pair_label_tsv(path, stats=stats))) == 2
    assert stats.summary() == "x.tsv: 2 examples, skipped 1 (blank line)"
    assert stats.lines == 3
