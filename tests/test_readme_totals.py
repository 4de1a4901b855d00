"""README.md's results at a glance quote CLAIMS.md's counts: the two must not drift apart."""

import pathlib

REPO = pathlib.Path(__file__).resolve().parents[1]


def _table(text, first_cell):
    """{row name: {column: count}} of the Markdown table whose header starts with
    `first_cell`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_cell} |"))
    names = [cell.strip() for cell in lines[start].strip("|").split("|")][1:]
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("| "):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0]] = dict(zip(names, map(int, cells[1:])))
    return rows


def test_the_readme_quotes_the_claims_reports_counts():
    claims = _table((REPO / "CLAIMS.md").read_text("utf-8"), "verdict")
    readme = (REPO / "README.md").read_text("utf-8")
    glance = readme.split("## Results at a glance", 1)[1].split("\n## ", 1)[0]
    quoted = _table(glance, "verdict")
    assert quoted.keys() == claims.keys()
    for verdict, cells in quoted.items():
        assert cells == {k: v for k, v in claims[verdict].items() if k in cells}, verdict
