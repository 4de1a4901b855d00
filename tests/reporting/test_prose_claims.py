"""The verdicts, orderings and commands of REPRODUCTION.md's prose are those of CLAIMS.md and
the records (gcnn_match/reporting/prose_claims.py): each kind of planted mistake is caught,
and the committed prose has none."""

import json
import pathlib

from gcnn_match.claims import verdicts
from gcnn_match.reporting import prose_claims

REPO = pathlib.Path(__file__).resolve().parents[2]

CLAIMS = """# Claims

| # | claim | verdict |
|---|---|---|
| <a id="gcnn-1"></a>1 | GCNN beats CNN | **undertrained at this budget** (A short): `x` |
| <a id="gcnn-8"></a>8 | ESIM's epoch is longer | 0.0001 (0.0040) | **confirmed** |
| <a id="gcnn-2"></a>2 | GCNN beats GLU | 0.0100 (0.2000) | **confirmed** |
| <a id="coin-2"></a>2 | context helps | 0.9900; against 0.0100 (0.3000) | **contradicted** |
| <a id="coin-1"></a>1 | context helps | not run (test predictions not recorded): `y` |
| <a id="attconv-advanced-beats-light"></a>1 | advanced beats light | **below floor** |
"""
RECORD = [
    {
        "name": "gcnn/quora/gcnn",
        "provenance": [
            {
                "seed": 1,
                "command": "python experiments/reproduce.py --table=gcnn-quora --seeds=1,2,3",
            }
        ],
    }
]


def _findings(tmp_path, prose):
    results = tmp_path / "results"
    results.mkdir(exist_ok=True)
    (results / "gcnn-quora-low-resource.json").write_text(json.dumps(RECORD), "utf-8")
    (tmp_path / "CLAIMS.md").write_text(CLAIMS, "utf-8")
    (tmp_path / "Makefile").write_text("claims: install\n\tpython x\nlatency:\n", "utf-8")
    markdown = tmp_path / "REPRODUCTION.md"
    markdown.write_text("# Reproduction results\n\n" + prose, "utf-8")
    found = prose_claims.check(markdown, tmp_path / "CLAIMS.md", results, tmp_path / "Makefile")
    return [(f.line, f.problem) for f in found]


def test_sound_prose_passes(tmp_path):
    prose = (
        "## GCNN\n\n"
        "- ESIM's epoch takes longer than GCNN's on an H100: confirmed\n"
        "  ([claim 8](CLAIMS.md#gcnn-8)). GCNN beats CNN only at a budget that leaves its runs\n"
        "  undertrained ([claim 1](CLAIMS.md#gcnn-1)). On Quora GCNN beats CNN: undertrained at\n"
        "  this budget ([claim 1](CLAIMS.md#gcnn-1)).\n"
        "- ESIM's epoch is longer and GCNN beats CNN, though undertrained at this budget\n"
        "  ([claim 8](CLAIMS.md#gcnn-8), [claim 1](CLAIMS.md#gcnn-1)).\n"
        "- Advanced above light is [below floor](CLAIMS.md#attconv-advanced-beats-light).\n"
        "- Both rows are below the majority class. The table below lists the runs of\n"
        "  `python experiments/reproduce.py --table=gcnn-quora --seeds=1,2,3`; `make claims`\n"
        "  renders CLAIMS.md.\n"
    )
    assert _findings(tmp_path, prose) == []


def test_a_word_on_the_holm_adjustment_must_agree_with_the_claim_rows(tmp_path):
    sound = (
        "- GCNN beats GLU: [confirmed](CLAIMS.md#gcnn-2), though not once the report's many\n"
        "  tests are counted. Context is [contradicted](CLAIMS.md#coin-2), a difference that\n"
        "  does not survive the Holm adjustment. ESIM's epoch is longer:\n"
        "  [confirmed](CLAIMS.md#gcnn-8), and it survives the Holm adjustment.\n"
    )
    assert _findings(tmp_path, sound) == []
    wrong = (
        "- GCNN beats GLU: [confirmed](CLAIMS.md#gcnn-2), and it survives the Holm adjustment.\n"
        "- Context is [contradicted](CLAIMS.md#coin-2), a difference the report's many tests\n"
        "  leave standing.\n"
        "- ESIM's epoch is longer: [confirmed](CLAIMS.md#gcnn-8), though not once the report's\n"
        "  many tests are counted.\n"
        "- No verdict here survives the Holm adjustment.\n"
    )
    assert [problem.split(" where")[0] for _, problem in _findings(tmp_path, wrong)] == [
        "says the verdict survives the Holm adjustment",
        "says the verdict survives the Holm adjustment",
        "says the verdict does not survive the Holm adjustment",
        "names the Holm adjustment without linking a tested claim",
    ]


def test_a_floor_named_by_a_pronoun_or_a_place_linked_in_the_document_passes(tmp_path):
    prose = (
        "## ATTCONV\n\n"
        "- Every paper row is below the TF-IDF + LR floor; only light is above it.\n"
        "- No row reaches the majority class, and none comes near the floors or above them.\n"
        "- Four stacked LC fits only rematerialized ([memory below](#kept-vs-recomputed)).\n"
    )
    assert _findings(tmp_path, prose) == []


def test_a_pronoun_or_a_link_that_names_no_floor_or_place_is_still_caught(tmp_path):
    prose = (
        "## ATTCONV\n\n"
        "- Light is above it on SNLI; the floors are in the table.\n"
        "- Advanced beats light ([see the runs](runs.md#advanced)).\n"
    )
    assert _findings(tmp_path, prose) == [
        (5, "states 'above' without linking its CLAIMS.md row"),
        (6, "states 'beats' without linking its CLAIMS.md row"),
    ]


def test_a_verdict_without_its_claim_row_is_caught(tmp_path):
    prose = "## GCNN\n\nGCNN's lead over CNN is confirmed on Quora.\n"
    assert _findings(tmp_path, prose) == [
        (5, "states 'confirmed' without linking its CLAIMS.md row")
    ]


def test_an_ordering_without_its_claim_row_is_caught(tmp_path):
    prose = "## GCNN\n\nIn our runs GCNN outperforms CNN by a point.\n"
    assert _findings(tmp_path, prose) == [
        (5, "states 'outperforms' without linking its CLAIMS.md row")
    ]


def test_a_verdict_other_than_its_claim_row_s_is_caught(tmp_path):
    prose = (
        "## GCNN\n\nThe speed claim is contradicted ([claim 8](CLAIMS.md#gcnn-8)).\n\n"
        "GCNN beats CNN: confirmed ([claim 1](CLAIMS.md#gcnn-1)).\n"
    )
    assert _findings(tmp_path, prose) == [
        (5, "says 'contradicted' where its CLAIMS.md row says confirmed"),
        (7, "says 'confirmed' where its CLAIMS.md row says undertrained at this budget"),
    ]


def test_an_ordering_over_a_claim_not_confirmed_that_does_not_say_so_is_caught(tmp_path):
    prose = (
        "## GCNN\n\nGCNN beats CNN on Quora ([claim 1](CLAIMS.md#gcnn-1)).\n\n"
        "## COIN\n\nContext in cross-attention is above none ([claim 1](CLAIMS.md#coin-1)).\n"
    )
    assert _findings(tmp_path, prose) == [
        (
            5,
            "does not say 'undertrained at this budget', the verdict of its CLAIMS.md row #gcnn-1",
        ),
        (9, "does not say 'not run', the verdict of its CLAIMS.md row #coin-1"),
    ]


def test_each_link_of_a_sentence_must_agree_with_it_on_its_own(tmp_path):
    prose = (
        "## GCNN\n\nGCNN beats CNN and ESIM's epoch is longer: confirmed\n"
        "([claim 8](CLAIMS.md#gcnn-8), [claim 1](CLAIMS.md#gcnn-1)).\n\n"
        "Both are undertrained ([claim 1](CLAIMS.md#gcnn-1), [claim 8](CLAIMS.md#gcnn-8)).\n"
    )
    assert _findings(tmp_path, prose) == [
        (
            5,
            "does not say 'undertrained at this budget', the verdict of its CLAIMS.md row #gcnn-1",
        ),
        (8, "does not say 'confirmed', the verdict of its CLAIMS.md row #gcnn-8"),
    ]


def test_every_verdict_of_claims_md_has_its_words():
    assert all(
        any(verdict.startswith(words) for words in prose_claims.VERDICT_WORDS)
        for verdict in verdicts.VERDICTS
    )


def test_the_verdict_below_floor_sets_no_row_against_a_floor(tmp_path):
    prose = "## ATTCONV\n\nAdvanced above light is below floor ([claim 8](CLAIMS.md#gcnn-8)).\n"
    assert _findings(tmp_path, prose) == [
        (5, "says 'below floor' where its CLAIMS.md row says confirmed")
    ]


def test_a_link_to_no_claim_row_is_caught(tmp_path):
    prose = "## COIN\n\nContext beats no context ([claim 9](CLAIMS.md#coin-9)).\n"
    assert _findings(tmp_path, prose) == [(5, "links no CLAIMS.md row: #coin-9")]


def test_a_command_no_record_holds_is_caught(tmp_path):
    prose = (
        "## GCNN\n\nThe rows came from\n"
        "`python experiments/reproduce.py --table=gcnn-quora --seeds=1,2,3,4,5`, rendered by\n"
        "`make claim`.\n"
    )
    problem = "quotes a command no record's provenance holds"
    assert _findings(tmp_path, prose) == [(5, problem), (5, problem)]


def test_the_committed_prose_states_the_verdicts_of_its_claim_rows():
    found = prose_claims.check(
        REPO / "REPRODUCTION.md", REPO / "CLAIMS.md", REPO / "results", REPO / "Makefile"
    )
    assert not found, "\n".join(f"REPRODUCTION.md:{f.line}: {f.problem}: {f.text}" for f in found)
