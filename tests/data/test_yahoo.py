"""Yahoo! Answers candidate sets: XML reading, length filter, BM25 negatives, split, files."""

import gzip
import json
import math
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from gcnn_match.data import yahoo
from gcnn_match.data.own_data_reader import read_pairs
from gcnn_match.data.reading import ReaderError, ReadStats

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
VOCAB = [f"w{i}" for i in range(60)]
NUM_GOOD = 44  # 44 kept pairs split 20:1:1 -> 40 / 2 / 2 questions


def _document(uri, subject, answer, content="", others=()):
    best = f"<bestanswer>{answer}</bestanswer>" if answer is not None else ""
    items = "".join(f"<answer_item>{a}</answer_item>" for a in others)
    return (
        f'<vespaadd><document type="wisdom">\n<uri>{uri}</uri>\n'
        f"<subject>{subject}</subject>\n<content>{content}</content>\n{best}\n"
        f"<nbestanswers>{items}</nbestanswers>\n<cat>Zoology</cat>\n"
        "</document></vespaadd>\n"
    )


def _words(rng, low, high):
    return " ".join(rng.choice(VOCAB, size=rng.integers(low, high + 1)))


def _corpus(rng):
    """NUM_GOOD valid questions plus one of each kind the builder drops."""
    docs = [
        _document(
            f"q{i}",
            f"why {_words(rng, 3, 8)} ?",
            _words(rng, 4, 12),
            content=_words(rng, 20, 30),
            others=[_words(rng, 4, 8)],
        )
        for i in range(NUM_GOOD)
    ]
    docs += [
        _document("short_q", "Why ?", "an answer of enough words"),
        _document("long_a", "is this question long enough", _words(rng, 31, 40)),
        _document("no_best", "a question nobody answered well", None),
        _document("q0", "a repeated uri is dropped here", "with an answer of enough words"),
    ]
    return '<?xml version="1.0" encoding="UTF-8"?>\n<ystfeed>\n' + "".join(docs) + "</ystfeed>\n"


@pytest.fixture(scope="module")
def xml_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("yahoo") / "FullOct2007.xml"
    path.write_text(_corpus(np.random.default_rng(7)), encoding="utf-8")
    return path


def _build(path, **config):
    return yahoo.build_candidate_sets(yahoo.read_yahoo_xml(path), yahoo.BuildConfig(**config))


TOP_K = 12  # of the 44 answers; test_10 needs 9 besides the query's own


@pytest.fixture(scope="module")
def built(xml_file):
    return _build(xml_file, top_k=TOP_K)


def _groups(rows):
    """group -> [(answer, label)], checking a group's rows are consecutive."""
    groups, order = {}, []
    for _, answer, label, group in rows:
        if not order or order[-1] != group:
            assert group not in groups, f"rows of {group} are not consecutive"
            order.append(group)
        groups.setdefault(group, []).append((answer, label))
    return groups


def test_reader_fields_markup_and_skips(tmp_path):
    path = tmp_path / "manner.xml.gz"
    text = (
        "<ystfeed>\n"
        + _document(
            "u1",
            "How  do\nI  fix it ?",
            "Turn it off.&lt;br /&gt;Then <b>on</b> again",
            content="It broke.",
        )
        + _document("u2", "", "an answer")
        + _document("u3", "a question", None)
        + "</ystfeed>\n"
    )
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    stats = ReadStats()
    questions = list(yahoo.read_yahoo_xml(path, stats))
    assert questions == [
        yahoo.YahooQuestion(
            uri="u1",
            subject="How do I fix it ?",
            content="It broke.",
            best_answer="Turn it off. Then on again",
            line=2,
        )
    ]
    assert stats.skipped == {"no subject": 1, "no best answer": 1} and stats.examples == 1


def test_malformed_xml_names_file_and_line(tmp_path):
    path = tmp_path / "broken.xml"
    path.write_text(
        "<ystfeed>\n"
        + _document("u1", "a b c d", "e f g h")
        + "<vespaadd><document>\n<subject>oops</content>\n</document></vespaadd>\n"
    )
    with pytest.raises(ReaderError, match=r"broken\.xml:11: not well-formed XML \(mismatched tag"):
        list(yahoo.read_yahoo_xml(path))


def test_file_without_documents_is_an_error(tmp_path):
    path = tmp_path / "other.xml"
    path.write_text("<rss>\n<item>not yahoo</item>\n</rss>\n")
    with pytest.raises(ReaderError, match=r"other\.xml:3: no <document>.*Webscope layout"):
        list(yahoo.read_yahoo_xml(path))


def test_length_filter_and_counts(built):
    summary = built.summary
    assert summary["questions_read"] == NUM_GOOD + 3  # "no_best" never leaves the reader
    assert summary["pairs_kept"] == summary["answer_pool_size"] == NUM_GOOD
    assert summary["skipped"] == {
        "answer length outside [4, 30]": 1,
        "duplicate uri": 1,
        "question length outside [4, 30]": 1,
    }
    for rows in built.rows.values():
        for question, answer, _, group in rows:
            assert 4 <= len(question.split()) <= 30 and 4 <= len(answer.split()) <= 30
            assert group.startswith("q")


def test_answer_pool_all_searches_the_dropped_pairs_answers_too(xml_file, built):
    sets = _build(xml_file, top_k=TOP_K, answer_pool="all")
    # + the short question's answer and the long answer; the duplicate uri is not read twice.
    assert sets.summary["answer_pool_size"] == NUM_GOOD + 2
    assert sets.summary["questions"] == built.summary["questions"]
    negatives = [a for split in yahoo.SPLITS for _, a, label, _ in sets.rows[split] if not label]
    assert len(negatives) == 4 * NUM_GOOD


def test_split_ratio_and_group_shape(built):
    assert built.summary["questions"] == {"train": 40, "dev": 2, "test": 2, "test_10": 2}
    seen = set()
    for split in yahoo.SPLITS:
        rows = built.rows[split]
        groups = _groups(rows)
        assert len(groups) == built.summary["questions"][split]
        assert len(rows) == built.summary["rows"][split] == 5 * len(groups)
        assert not seen & set(groups), "a question is in two splits"
        seen |= set(groups)
        for candidates in groups.values():
            assert sorted(label for _, label in candidates) == [0, 0, 0, 0, 1]
            assert len({answer for answer, _ in candidates}) == 5


def test_test_10_holds_the_test_questions_among_ten_candidates(built):
    test, test_10 = _groups(built.rows["test"]), _groups(built.rows["test_10"])
    assert set(test) == set(test_10) and len(built.rows["test_10"]) == 10 * len(test)
    for group, candidates in test_10.items():
        assert sorted(label for _, label in candidates) == [0] * 9 + [1]
        assert len(set(candidates)) == 10 and set(test[group]) <= set(candidates)


def _lucene_bm25(docs, query, k1=1.2, b=0.75):
    """Lucene's BM25 of `query` against every doc, written out independently."""
    avgdl = np.mean([len(d) for d in docs])
    df = Counter(t for d in docs for t in set(d))
    scores = np.zeros(len(docs))
    for i, doc in enumerate(docs):
        tf = Counter(doc)
        for term in query:
            if tf[term]:
                idf = math.log(1 + (len(docs) - df[term] + 0.5) / (df[term] + 0.5))
                scores[i] += idf * tf[term] / (tf[term] + k1 * (1 - b + b * len(doc) / avgdl))
    return scores


def test_negatives_are_among_the_bm25_top_k_of_the_best_answer(built):
    top_k = TOP_K
    rows = [row for split_rows in built.rows.values() for row in split_rows]
    positives = {group: answer for _, answer, label, group in rows if label == 1}
    pool = list(positives.values())  # every kept pair's best answer made a group here
    docs = [answer.lower().split() for answer in pool]
    checked = 0
    for split_rows in built.rows.values():
        for group, candidates in _groups(split_rows).items():
            scores = _lucene_bm25(docs, positives[group].lower().split())
            kth_best = np.sort(scores)[-top_k]
            for answer, label in candidates:
                if label == 0:
                    score = scores[pool.index(answer)]
                    assert score > 0 and score >= kth_best - 1e-4 * kth_best, (group, answer)
                    checked += 1
    assert checked == 4 * NUM_GOOD + 9 * 2  # + the 2 test questions among 10 candidates


def test_same_seed_same_sets_and_nine_negatives_extend_four(xml_file, built):
    again = _build(xml_file, top_k=TOP_K)
    assert again.rows == built.rows
    other_seed = _build(xml_file, top_k=TOP_K, seed=2)
    assert other_seed.rows["test"] != built.rows["test"]
    # Same seed and top_k: same split, and each question's 4 negatives are among its 9.
    four, nine = built, _build(xml_file, top_k=TOP_K, num_negatives=9)
    for split in yahoo.SPLITS:
        four_groups, nine_groups = _groups(four.rows[split]), _groups(nine.rows[split])
        assert set(four_groups) == set(nine_groups)
        for group, candidates in four_groups.items():
            assert len(nine_groups[group]) == 10
            assert set(candidates) <= set(nine_groups[group])


def test_question_without_enough_bm25_candidates_is_dropped(tmp_path):
    path = tmp_path / "lonely.xml"
    rng = np.random.default_rng(3)
    docs = [
        _document(f"q{i}", f"why {_words(rng, 3, 8)} ?", _words(rng, 4, 12))
        for i in range(NUM_GOOD)
    ]
    docs.append(_document("lonely", "what shares no word ?", "zz1 zz2 zz3 zz4"))
    path.write_text("<ystfeed>\n" + "".join(docs) + "</ystfeed>\n")
    sets = _build(path, top_k=TOP_K)
    assert sets.summary["skipped"] == {"fewer than 9 BM25 candidates": 1}
    assert sum(sets.summary["questions"][split] for split in yahoo.SPLITS) == NUM_GOOD
    assert all(group != "lonely" for rows in sets.rows.values() for *_, group in rows)


def test_config_rejects_impossible_settings():
    with pytest.raises(ValueError, match="negatives < top_k, got 4 and 4"):
        yahoo.BuildConfig(num_negatives=4, test_10=False, top_k=4)
    with pytest.raises(ValueError, match="negatives < top_k, got 9 and 8"):
        yahoo.BuildConfig(top_k=8)
    with pytest.raises(ValueError, match="answer_pool"):
        yahoo.BuildConfig(answer_pool="nbest")


def test_cli_writes_the_registry_layout(xml_file, tmp_path):
    subprocess.run(
        [
            sys.executable,
            str(REPO / "experiments" / "build_yahoo.py"),
            f"--xml={xml_file}",
            f"--data_dir={tmp_path}",
            f"--top_k={TOP_K}",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    folder = tmp_path / "yahoo"
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["source"]["file"] == str(xml_file) and summary["questions"]["dev"] == 2
    for split in yahoo.SPLITS + (yahoo.TEST_10,):
        examples = list(read_pairs(folder / f"{split}.tsv", a=0, b=1, label=2, uid=3))
        assert len(examples) == summary["rows"][split]
        assert {e.label for e in examples} == {0, 1}
    assert sorted(p.name for p in folder.iterdir()) == [
        "dev.tsv",
        "summary.json",
        "test.tsv",
        "test_10.tsv",
        "train.tsv",
    ]
