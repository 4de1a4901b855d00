"""FEVER claim contexts: built from claims, wiki-pages and retrieved sentences in the official
formats (tests/fever_fixture.py), read back as examples with sentence segments, and the
errors that name file and line."""

import json
import zipfile

import pytest
from fever_fixture import PAGES, write_fever_fixture

from gcnn_match.data import fever
from gcnn_match.data.pipeline import PairEncoder, tokenize_examples
from gcnn_match.data.readers import read_fever_claims, read_fever_contexts
from gcnn_match.data.reading import ReaderError, ReadStats
from gcnn_match.data.registry import MissingDataError
from gcnn_match.data.tokenizers import TextPolicy


def _contexts(path):
    return {c.id: c.context for c in read_fever_claims(path)}


def _text(page, line):
    return PAGES[page][line]


def test_gold_contexts_are_the_union_of_the_evidence_sets(tmp_path):
    write_fever_fixture(tmp_path)
    result = fever.prepare_contexts(tmp_path, "paper_dev", "gold", log=lambda *_: None)
    contexts = _contexts(result.path)
    soul, fox = "Soul_Food_-LRB-film-RRB-", "Fox_2000_Pictures"
    # Two sets sharing a sentence: each sentence once, in file order.
    assert contexts[137334] == ((soul, 1, _text(soul, 1)), (fox, 0, _text(fox, 0)))
    # A page missing from wiki-pages keeps its place, without text.
    assert contexts[111897] == ((fox, 1, _text(fox, 1)), ("Missing_Page", 0, None))
    # NOT ENOUGH INFO has no gold evidence: the retrieved sentences.
    assert contexts[194462] == (
        ("Tilda_Swinton", 0, _text("Tilda_Swinton", 0)),
        ("Tilda_Swinton", 1, _text("Tilda_Swinton", 1)),
    )
    assert contexts[222222] == (('The_"Quoted"_Page', 0, _text('The_"Quoted"_Page', 0)),)
    assert (
        result.claims,
        result.sentences,
        result.missing_page,
        result.missing_line,
        result.empty_contexts,
    ) == (4, 7, 1, 0, 0)
    # The gold sets are kept for the scorer, in claim-file order.
    [claim] = [c for c in read_fever_claims(result.path) if c.id == 111897]
    assert claim.evidence == ((("Fox_2000_Pictures", 1),), (("Missing_Page", 0),))
    assert result.path == tmp_path / "fever" / "contexts" / "gold" / "paper_dev.jsonl"


def test_retrieved_contexts_are_the_top_five_in_rank_order(tmp_path):
    write_fever_fixture(tmp_path)
    result = fever.prepare_contexts(tmp_path, "paper_dev", "retrieved", log=lambda *_: None)
    contexts = _contexts(result.path)
    assert [(p, n) for p, n, _ in contexts[137334]] == [
        ("Soul_Food_-LRB-film-RRB-", 0),
        ("Fox_2000_Pictures", 0),
        ("Soul_Food_-LRB-film-RRB-", 1),
        ("Tilda_Swinton", 0),
        ("Fox_2000_Pictures", 1),
    ]
    assert contexts[111897][1] == ("Fox_2000_Pictures", 7, None)  # no such line
    assert (result.sentences, result.missing_page, result.missing_line) == (10, 0, 1)


def test_the_zipped_dump_gives_the_same_contexts(tmp_path):
    folder = write_fever_fixture(tmp_path)
    expected = _contexts(
        fever.prepare_contexts(tmp_path, "paper_dev", "gold", log=lambda *_: None).path
    )
    with zipfile.ZipFile(folder / "wiki-pages.zip", "w") as archive:
        for page_file in sorted((folder / "wiki-pages").iterdir()):
            archive.write(page_file, f"wiki-pages/{page_file.name}")
            page_file.unlink()
    (folder / "wiki-pages").rmdir()
    result = fever.prepare_contexts(tmp_path, "paper_dev", "gold", log=lambda *_: None)
    assert _contexts(result.path) == expected


def test_reader_gives_context_tokens_segments_and_counts_what_it_leaves_out(tmp_path):
    write_fever_fixture(tmp_path)
    path = fever.prepare_contexts(tmp_path, "paper_dev", "retrieved", log=lambda *_: None).path
    stats = ReadStats()
    examples = {
        ex.uid: ex for ex in read_fever_contexts(path, stats=stats, max_sentences=3, sentence_len=4)
    }
    first = examples["137334"]
    assert first.b == "Fox 2000 Pictures released the film Soul Food."
    assert first.a_tokens == (
        "Soul",
        "Food",
        "is",
        "a",
        "Fox",
        "2000",
        "Pictures",
        "is",
        "It",
        "was",
        "produced",
        "by",
    )
    assert first.a_segments == (1,) * 4 + (2,) * 4 + (3,) * 4
    assert first.a == " ".join(first.a_tokens) and first.group == "137334"
    assert [examples[k].label for k in ("137334", "111897", "194462")] == [0, 1, 2]
    assert examples["111897"].a_segments == (1,) * 4
    assert stats.skipped == {
        "context sentence not in wiki-pages": 1,
        "context sentence after the first 3": 2,
    }


def test_segments_follow_the_given_tokens_through_the_encoder(tmp_path):
    write_fever_fixture(tmp_path)
    path = fever.prepare_contexts(tmp_path, "paper_dev", "gold", log=lambda *_: None).path
    examples = list(read_fever_contexts(path))
    policy = TextPolicy(tokenizer="treebank", lowercase=True, use_given_tokens=True)
    pairs = tokenize_examples(examples, policy)
    encoder = PairEncoder.fit(pairs, policy, max_len_a=12, max_len_b=40, segments=True)
    encoded = encoder.encode("dev", examples, pairs)
    assert encoder.feature_names()[-1] == "a_segments"
    first = examples[0]
    assert pairs[0].a == [t.lower() for t in first.a_tokens]
    assert pairs[0].b[-1] == "."  # the claim goes through the tokenizer
    segments = encoded.features["a_segments"].row(0)
    assert segments.tolist() == list(first.a_segments[:12])
    assert len(segments) == len(encoded.features["a_ids"].row(0)) == 12  # cut with the tokens
    with pytest.raises(ValueError, match="use_given_tokens"):
        TextPolicy(tokenizer="treebank").segments(first)
    with pytest.raises(ValueError, match="segments"):
        PairEncoder.fit(pairs, policy, 12, 40, segments=True).encode_pair(
            tokenize_examples([first.__class__(a="x", b="y", label=0, uid="u")], policy)[0]
        )


def _prepare(tmp_path, setting="gold"):
    return fever.prepare_contexts(tmp_path, "paper_dev", setting, log=lambda *_: None)


def test_missing_inputs_say_what_to_place_where(tmp_path):
    folder = write_fever_fixture(tmp_path, claims=(137334, 194462))
    (folder / "retrieved" / "paper_dev.jsonl").write_text(
        json.dumps({"id": 137334, "predicted_sentences": []}) + "\n", "utf-8"
    )
    with pytest.raises(MissingDataError, match="no retrieved sentences for 1 of the 1 .*id 194462"):
        _prepare(tmp_path)
    (folder / "retrieved" / "paper_dev.jsonl").unlink()
    with pytest.raises(MissingDataError, match="retrieved/paper_dev.jsonl"):
        _prepare(tmp_path)
    write_fever_fixture(tmp_path / "other")
    for page_file in (tmp_path / "other" / "fever" / "wiki-pages").iterdir():
        page_file.unlink()
    (tmp_path / "other" / "fever" / "wiki-pages").rmdir()
    with pytest.raises(MissingDataError, match="wiki-pages.zip"):
        _prepare(tmp_path / "other")


@pytest.mark.parametrize(
    "name,line,text,message",
    [
        ("retrieved", 2, "not json", "invalid JSON"),
        (
            "retrieved",
            2,
            json.dumps({"id": 111897, "predicted_sentences": [["Page", "0"]]}),
            r"\[page, line\]",
        ),
        ("retrieved", 2, json.dumps({"id": 111897}), "predicted_sentences"),
        (
            "retrieved",
            2,
            json.dumps({"id": 137334, "predicted_sentences": []}),
            "listed again .*line 1",
        ),
        (
            "wiki",
            2,
            json.dumps(
                {"id": "Soul_Food_-LRB-film-RRB-", "text": "", "lines": "0\tfine\nzero\tbad"}
            ),
            "'lines' entry 1",
        ),
        ("wiki", 2, json.dumps({"id": "Soul_Food_-LRB-film-RRB-", "text": ""}), "'lines'"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path, name, line, text, message):
    folder = write_fever_fixture(tmp_path)
    path = (
        folder / "retrieved" / "paper_dev.jsonl"
        if name == "retrieved"
        else folder / "wiki-pages" / "wiki-001.jsonl"
    )
    lines = path.read_text("utf-8").splitlines()
    lines[line - 1] = text
    path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(ReaderError, match=message) as error:
        _prepare(tmp_path)
    assert str(error.value).startswith(f"{path}:{line}:")


def test_malformed_context_entry_names_file_and_line(tmp_path):
    path = tmp_path / "contexts.jsonl"
    path.write_text(
        json.dumps(
            {"id": 1, "claim": "c", "label": "SUPPORTS", "evidence": [], "context": [["Page", 0]]}
        )
        + "\n",
        "utf-8",
    )
    with pytest.raises(ReaderError, match="prepare_fever") as error:
        list(read_fever_contexts(path))
    assert str(error.value).startswith(f"{path}:1:")


@pytest.mark.slow
def test_prepare_command_builds_both_settings_and_reports_retrieval_quality(tmp_path):
    import pathlib
    import subprocess
    import sys

    pytest.importorskip("fever.scorer", reason="the official scorer: run `make install`")
    write_fever_fixture(tmp_path)
    script = pathlib.Path(__file__).resolve().parents[2] / "experiments" / "prepare_fever.py"
    done = subprocess.run(
        [sys.executable, str(script), f"--data_dir={tmp_path}"],
        capture_output=True,
        text=True,
        check=True,
    )
    for setting in fever.SETTINGS:
        assert fever.contexts_path(tmp_path, "paper_dev", setting).is_file()
    # The fixture's retrieved sentences: precision (2/5 + 1/2 + 0) / 3, complete sets for 2 of
    # the 3 verifiable claims; with every label right, SUB = 3 of 4 claims.
    assert (
        "precision 30.00, recall 66.67, F1 41.38; FEVER score with every label right 75.00"
    ) in done.stdout
