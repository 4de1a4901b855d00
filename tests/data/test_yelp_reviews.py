"""Yelp reviews (Lin et al. 2017's split, ATTCONV Table 3) through the dataset registry: both
layouts, every review kept, and errors that name file and line."""

import json

import pytest

from gcnn_match.data.reading import ReaderError, ReadStats
from gcnn_match.data.registry import MissingDataError, read_split


def _place(tmp_path, name, text):
    folder = tmp_path / "yelp"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, "utf-8")
    return folder / name


def test_loader_layout_gives_the_review_as_both_texts_and_stars_as_classes(tmp_path):
    # The ATTCONV loader's files: "stars token token ...". Short reviews are kept (the
    # loader dropped lines of <= 4 fields from every split, the test split included).
    _place(tmp_path, "yelp_test_2000", "5 great food .\n1 awful\n3 it was fine , i guess\n")
    stats = ReadStats()
    examples = list(read_split("yelp", "test", tmp_path, stats))
    assert [ex.label for ex in examples] == [4, 0, 2]
    assert [ex.a for ex in examples] == ["great food .", "awful", "it was fine , i guess"]
    assert all(ex.a == ex.b for ex in examples)  # t_y = t_x
    assert stats.examples == 3 and not stats.skipped


def test_review_json_layout(tmp_path):
    rows = [
        {"review_id": "r1", "stars": 4.0, "text": "Nice place."},
        {"review_id": "r2", "stars": 2, "text": "Cold soup."},
    ]
    _place(tmp_path, "dev.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    examples = list(read_split("yelp", "dev", tmp_path))
    assert [(ex.uid, ex.label, ex.b) for ex in examples] == [
        ("r1", 3, "Nice place."),
        ("r2", 1, "Cold soup."),
    ]


@pytest.mark.parametrize(
    "name,text,line,message",
    [
        ("yelp_valid_2000", "5 good\n6 too many stars\n", 2, "unknown label '6'"),
        ("yelp_valid_2000", "5 good\nnostars\n", 2, "stars<whitespace>text"),
        (
            "dev.jsonl",
            '{"stars": 5, "text": "ok"}\n{"stars": 0, "text": "no"}\n',
            2,
            "unknown label '0'",
        ),
        ("dev.jsonl", '{"stars": 5}\n', 1, "missing key 'text'"),
    ],
)
def test_malformed_reviews_name_file_and_line(tmp_path, name, text, line, message):
    path = _place(tmp_path, name, text)
    with pytest.raises(ReaderError, match=message) as error:
        list(read_split("yelp", "dev", tmp_path))
    assert str(error.value).startswith(f"{path}:{line}:")


def test_missing_split_says_what_to_place_where(tmp_path):
    with pytest.raises(MissingDataError, match="yelp_train_500k") as error:
        read_split("yelp", "train", tmp_path)
    assert "Lin et al. (2017)" in str(error.value)
