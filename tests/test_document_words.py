"""The documents describe the software, its results, machines and commands, never how they were
made: no working sittings, loaned machines, allowances of machine time, issue numbers or history
words. A measurement names its machine, software, date and command; git keeps the history.

The refused words are spelled here as regular expressions and the planted lines are split
string literals, so that this file does not itself hold the phrases it refuses."""

import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
DOCUMENTS = (
    ["README.md", "REPRODUCTION.md", "LEARNING_CURVES.md", "BENCHMARKS.md", "CLAIMS.md"]
    + ["CONTRIBUTING.md"]
    + sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*.md"))
    + sorted(
        str(p.relative_to(REPO))
        for p in (REPO / "results").rglob("*")
        if p.suffix in (".txt", ".md")
    )
)
# Each pattern is precise enough that a legitimate use does not match: a verdict's epoch
# allowance ("at this bud[g]et") is fine, an allowance of machine time is not.
PHRASES = {
    "a working sitting": r"\bsess[i]ons?\b",
    "a loaned machine": r"\b(?:len[t]|borro[w](?:ed|s|ing)?)\b",
    "a machine loan": r"\bleas[e][sd]?\b|\bbudge[t]_left",
    "an allowance of machine time": r"\bdevice[- ]tim[e]\b|\btime budge[t]\b|\bdevice budge[t]\b",
    "an issue number": r"\bissues? #?\d+",
    "history": r"\buntil sess[i]on\b|\bbefore this chang[e]\b|\bearlier version[s]?\b"
    r"|\b(?:before|until) \d{4}-\d{2}-\d{2}\b|\bearlier [\w-]*\s?(?:runs?|configurations?)\b"
    r"|\bno longer\b|\bwas fixed\b|\bhas been fixed\b|\bearlier readings?\b|\bprevious calls?\b",
}


def found_phrases(text):
    """(line number, what, the line) of every phrase of `PHRASES` in `text`."""
    hits = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in PHRASES.items():
            if re.search(pattern, line, re.I):
                hits.append((number, what, line.strip()))
    return hits


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_document_says_nothing_about_how_it_was_made(document):
    hits = found_phrases((REPO / document).read_text("utf-8"))
    assert not hits, "\n".join(f"{document}:{n}: {what}: {line}" for n, what, line in hits)


def test_the_phrases_catch_what_they_are_for_and_spare_legitimate_uses():
    made = [
        "Ses" + "sion 15 (2026-11-26) was le" + "nt one NVIDIA H100 for 15 minutes",
        "devi" + "ce time used: 345 s of 900 s (bud" + "get_left_s 555)",
        "the four-stacked rows stay 'not run' unt" + "il ses" + "sion 20",
        "the ear" + "lier 50-d runs read the vectors unpadded",
        "Run sets recorded bef" + "ore 2026-11-26 cannot be joined",
        "the GCNN speed-up asked for by iss" + "ue 7",
    ]
    legitimate = [
        "undertrained at this budget: the selected epoch is at most the cap minus the patience",
        "NVIDIA H200, 2026-11-27, Keras 3.15.1 on JAX 0.11.2",
        "the run resumes until its early stopping ends it",
        "a lentil is not a machine",
    ]
    assert all(found_phrases(line) for line in made)
    assert not any(found_phrases(line) for line in legitimate)
