"""README.md's results at a glance quote CLAIMS.md's totals: the two must not drift apart."""

import pathlib

REPO = pathlib.Path(__file__).resolve().parents[1]


def _claims_totals():
    """{verdict: count} of CLAIMS.md's "all" row, by the counts table's header."""
    lines = (REPO / "CLAIMS.md").read_text("utf-8").splitlines()
    header = next(line for line in lines if line.startswith("| paper | confirmed"))
    totals = next(line for line in lines if line.startswith("| all |"))
    names = [cell.strip() for cell in header.strip("|").split("|")][1:]
    values = [int(cell) for cell in totals.strip("|").split("|")[1:]]
    return dict(zip(names, values))


def _readme_glance():
    text = (REPO / "README.md").read_text("utf-8")
    section = text.split("## Results at a glance", 1)[1].split("\n## ", 1)[0]
    return " ".join(section.split())


def test_the_readme_quotes_the_claims_reports_totals():
    totals = _claims_totals()
    glance = _readme_glance()
    registered = sum(v for k, v in totals.items() if k != "of which data missing")
    assert f"registers {registered} claims" in glance
    for verdict in ("confirmed", "inconclusive", "below floor", "undertrained at this budget"):
        assert f"{totals[verdict]} {verdict}" in glance, verdict
    if totals["contradicted"] == totals["borderline"] == 0:
        assert "none contradicted or borderline" in glance
    else:
        for verdict in ("contradicted", "borderline"):
            assert f"{totals[verdict]} {verdict}" in glance, verdict
    assert f"{totals['cited row, not reproduced']} against rows the" in glance
    missing = totals["of which data missing"]
    missing = "all" if missing == totals["not run"] else missing
    assert f"{totals['not run']} not run, {missing} of them" in glance
