"""A small FEVER set-up in the official formats, written by the tests that need it.

`{data_dir}/fever/`: `paper_dev.jsonl` (claims with gold evidence ids), `wiki-pages/` (two
page files, the first opening with the dump's empty page) and `retrieved/paper_dev.jsonl`
(top sentences per claim, six for the first claim: only five are used).
"""

import json

PAGES = {
    "Soul_Food_-LRB-film-RRB-": [
        "Soul Food is a 1997 American comedy-drama film .",
        "It was produced by Fox 2000 Pictures .",
    ],
    "Fox_2000_Pictures": [
        "Fox 2000 Pictures is an American film studio .",
        "It was founded in 1994 .",
        "",
    ],  # an empty sentence, as the dump has
    'The_"Quoted"_Page': ["A page whose title needs JSON escapes ."],
    "Tilda_Swinton": [
        "Tilda Swinton is a British actress .",
        "She is known for her work in film .",
    ],
    "Unused_Page": ["Nobody asks for this sentence ."],
}
# id -> (label, claim, gold evidence sets of (page, line))
CLAIMS = {
    137334: (
        "SUPPORTS",
        "Fox 2000 Pictures released the film Soul Food.",
        [
            [("Soul_Food_-LRB-film-RRB-", 1)],
            [("Soul_Food_-LRB-film-RRB-", 1), ("Fox_2000_Pictures", 0)],
        ],
    ),
    111897: (
        "REFUTES",
        "Fox 2000 Pictures was founded in 1950.",
        [[("Fox_2000_Pictures", 1)], [("Missing_Page", 0)]],
    ),
    194462: ("NOT ENOUGH INFO", "Tilda Swinton is a vegan.", []),
    222222: ("SUPPORTS", "A quoted page exists.", [[('The_"Quoted"_Page', 0)]]),
}
RETRIEVED = {
    137334: [
        ("Soul_Food_-LRB-film-RRB-", 0),
        ("Fox_2000_Pictures", 0),
        ("Soul_Food_-LRB-film-RRB-", 1),
        ("Tilda_Swinton", 0),
        ("Fox_2000_Pictures", 1),
        ("Unused_Page", 0),
    ],
    111897: [("Fox_2000_Pictures", 1), ("Fox_2000_Pictures", 7)],  # line 7 does not exist
    194462: [("Tilda_Swinton", 0), ("Tilda_Swinton", 1)],
    222222: [("Tilda_Swinton", 1)],
}


def claim_line(claim_id):
    label, claim, sets = CLAIMS[claim_id]
    evidence = [
        [[1000 + claim_id, 2000 + i, page, line] for page, line in evidence_set]
        for i, evidence_set in enumerate(sets)
    ] or [[[1000 + claim_id, None, None, None]]]
    return json.dumps(
        {
            "id": claim_id,
            "verifiable": "VERIFIABLE" if sets else "NOT VERIFIABLE",
            "label": label,
            "claim": claim,
            "evidence": evidence,
        }
    )


def page_line(page):
    lines = "\n".join(
        f"{i}\t{text}" + ("\tSome link" if i == 0 else "") for i, text in enumerate(PAGES[page])
    )
    return json.dumps({"id": page, "text": " ".join(PAGES[page]), "lines": lines})


def write_fever_fixture(data_dir, claims=tuple(CLAIMS)):
    """Writes the fixture under `data_dir`/fever and returns that folder."""
    fever = data_dir / "fever"
    (fever / "wiki-pages").mkdir(parents=True)
    (fever / "retrieved").mkdir()
    (fever / "paper_dev.jsonl").write_text("".join(claim_line(i) + "\n" for i in claims), "utf-8")
    names = list(PAGES)
    empty = json.dumps({"id": "", "text": "", "lines": ""})
    (fever / "wiki-pages" / "wiki-001.jsonl").write_text(
        "\n".join([empty] + [page_line(p) for p in names[:2]]) + "\n", "utf-8"
    )
    (fever / "wiki-pages" / "wiki-002.jsonl").write_text(
        "\n".join(page_line(p) for p in names[2:]) + "\n", "utf-8"
    )
    (fever / "retrieved" / "paper_dev.jsonl").write_text(
        "".join(
            json.dumps({"id": i, "predicted_sentences": [list(s) for s in RETRIEVED[i]]}) + "\n"
            for i in claims
        ),
        "utf-8",
    )
    return fever
