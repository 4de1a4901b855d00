"""The Yelp stand-in sample (ATTCONV Table 3 where Lin et al.'s split is absent): its csv files
through the dataset registry, the counts of the mirror's SOURCE.md, errors that name file and
line, and a dataset of its own that the paper's "yelp" never falls back to."""

import collections
import gzip

import pytest

from gcnn_match.data.experiment_data import apply_scale
from gcnn_match.data.reading import ReaderError, ReadStats
from gcnn_match.data.registry import MissingDataError, get_dataset, read_split, resolve_split
from gcnn_match.experiments import registry

STANDIN = "yelp_stars_standin"
HEADER = "text,label1,label2\n"
# Stars 1..5 per split, as the mirror's SOURCE.md counts them.
SOURCE_COUNTS = {
    "dev": {1: 750, 2: 435, 3: 516, 4: 1111, 5: 2188},
    "test": {1: 722, 2: 419, 3: 545, 4: 1073, 5: 2241},
}


def _place(tmp_path, split, text):
    folder = tmp_path / STANDIN
    folder.mkdir(exist_ok=True)
    path = folder / f"{split}.csv.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    return path


@pytest.mark.parametrize("split", ["dev", "test"])
def test_real_files_hold_the_reviews_and_stars_source_md_counts(shared_data, split):
    stats = ReadStats()
    examples = list(read_split(STANDIN, split, shared_data, stats))
    stars = collections.Counter(ex.label + 1 for ex in examples)
    assert dict(stars) == SOURCE_COUNTS[split]
    assert stats.lines == 5001 and stats.examples == 5000 and not stats.skipped  # + the header
    assert all(ex.a == ex.b and ex.a for ex in examples)  # the review attends to itself
    assert len({ex.uid for ex in examples}) == 5000


def test_the_description_states_the_real_test_majority(shared_data):
    examples = list(read_split(STANDIN, "test", shared_data))
    majority = collections.Counter(ex.label for ex in examples).most_common(1)[0]
    assert get_dataset(STANDIN).labels[majority[0]] == "5"
    share = f"majority 5★ = {100 * majority[1] / len(examples):.1f}% on test"
    assert share == "majority 5★ = 44.8% on test"
    assert share in get_dataset(STANDIN).description


def test_quoted_reviews_keep_commas_and_line_breaks(tmp_path):
    _place(
        tmp_path,
        "dev",
        HEADER + '"Good, cheap.\nWould return.",Business Category: Restaurants,Review Stars: 5.0\n'
        "Cold soup,Business Category: Restaurants,Review Stars: 2.0\n",
    )
    examples = list(read_split(STANDIN, "dev", tmp_path))
    assert [(ex.a, ex.label) for ex in examples] == [
        ("Good, cheap.\nWould return.", 4),
        ("Cold soup", 1),
    ]


@pytest.mark.parametrize(
    "text,line,message",
    [
        (HEADER + "ok,Business Category: Bars,Review Stars: 6.0\n", 2, "'Review Stars: 6.0'"),
        (HEADER + "ok,Business Category: Bars,Review Stars: 0.0\n", 2, "'Review Stars: 0.0'"),
        (
            HEADER + "ok,Business Category: Bars,Review Stars: 4.0\nno stars,Business\n",
            3,
            "2 comma-separated columns where line 1 has 3",
        ),
        ("text,label1\nok,Business Category: Bars\n", 1, "header has no column 'label2'"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path, text, line, message):
    path = _place(tmp_path, "test", text)
    with pytest.raises(ReaderError, match=message) as error:
        list(read_split(STANDIN, "test", tmp_path))
    assert str(error.value).startswith(f"{path}:{line}:")


def test_the_paper_dataset_never_reads_the_stand_in(tmp_path):
    _place(tmp_path, "dev", HEADER + "ok,Business Category: Bars,Review Stars: 4.0\n")
    assert resolve_split(STANDIN, "dev", tmp_path)[0] == tmp_path / STANDIN / "dev.csv.gz"
    with pytest.raises(MissingDataError) as error:
        resolve_split("yelp", "dev", tmp_path)
    # Its message points to the stand-in's own rows instead.
    assert f"--dataset={STANDIN}" in str(error.value)


def test_the_table_rows_are_table_3_on_the_stand_in():
    paper = registry.select(table="attconv-yelp")
    rows = registry.select(table=f"attconv-{STANDIN}")
    assert [c.row for c in rows] == [c.row for c in paper]
    assert [c.row for c in rows if c.model == "attconv"] == ["light", "w/o convolution", "advanced"]
    description = get_dataset(STANDIN).description
    for config, original in zip(rows, paper):
        assert config.dataset == STANDIN and config.table == "Table 3 (Yelp stand-in)"
        assert config.name == original.name.replace("/yelp/", f"/{STANDIN}/")
        assert "not Lin et al.'s split" in description and description in config.target_notes
        assert description not in original.target_notes
        # The paper's row on other reviews: every other setting is the paper row's.
        assert (
            config.replace(
                name=original.name,
                dataset="yelp",
                table="Table 3",
                target_notes=original.target_notes,
            )
            == original
        )


def test_only_the_low_resource_scale_applies():
    config = registry.get(f"attconv/{STANDIN}/light")
    scaled = apply_scale(config.replace(scale="low-resource"))
    assert (scaled.train_split, scaled.dev_split, scaled.test_split) == ("dev", "holdout", "test")
    with pytest.raises(ValueError, match=f"{STANDIN} has no train split"):
        apply_scale(config.replace(scale="full"))
