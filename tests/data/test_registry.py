"""Dataset registry: the entries the papers need, split resolution and its error message."""

import dataclasses
import gzip
import json

import pytest

from gcnn_match.data import readers, registry
from gcnn_match.data.registry import (
    MissingDataError,
    get_dataset,
    read_split,
    resolve_split,
)

SPLITS = {
    "snli": ["train", "dev", "test"],
    "multinli": ["train", "dev_matched", "dev_mismatched", "test_matched", "test_mismatched"],
    "quora": ["train", "dev", "test"],
    "scitail": ["train", "dev", "test"],
    "fever": ["train", "paper_dev", "paper_test", "shared_task_dev"]
    + [
        f"{split}.{setting}"
        for setting in ("retrieved", "gold")
        for split in ("train", "paper_dev", "paper_test", "shared_task_dev")
    ],
    "yelp": ["train", "dev", "test"],
    "yelp_stars_standin": ["dev", "test"],
    "lcqmc": ["train", "dev", "test"],
    "sick": ["train", "dev", "test"],
    "wikiqa": ["train", "dev", "test"],
    "yahoo": ["train", "dev", "test", "test_10"],
}


def test_every_dataset_and_split_is_registered():
    assert {name: list(spec.splits) for name, spec in registry.DATASETS.items()} == SPLITS
    assert "wiki-pages" in get_dataset("fever").resources


def test_labels_and_positive_class():
    assert get_dataset("snli").labels == ("entailment", "neutral", "contradiction")
    assert get_dataset("quora").labels[get_dataset("quora").positive_label] == "duplicate"
    assert get_dataset("lcqmc").positive_label == 1 == get_dataset("wikiqa").positive_label
    assert get_dataset("scitail").labels == ("entails", "neutral")
    assert get_dataset("fever").labels == ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    assert get_dataset("yelp").labels == ("1", "2", "3", "4", "5")
    assert get_dataset("wikiqa").task == "ranking"


def test_official_splits_and_single_text_datasets():
    official = {name: spec.official_splits for name, spec in registry.DATASETS.items()}
    # MultiNLI test labels are Kaggle-only: dev-mismatched is the labelled test split.
    assert official.pop("multinli") == ("train", "dev_matched", "dev_mismatched")
    assert official.pop("fever") == ("train", "paper_dev", "paper_test")
    assert official.pop("yelp_stars_standin") == (None, "dev", "test")  # no train split
    assert set(official.values()) == {("train", "dev", "test")}
    single_text = [name for name, spec in registry.DATASETS.items() if spec.single_text]
    assert single_text == ["yelp", "yelp_stars_standin"]


def test_a_dataset_is_registered_once():
    with pytest.raises(ValueError, match="registered twice"):
        registry.register_dataset(get_dataset("snli"))


def test_file_specs_are_consistent():
    for spec in registry.DATASETS.values():
        for split, candidates in spec.splits.items():
            assert candidates, (spec.name, split)
            for file_spec in candidates:
                assert file_spec.path.startswith(spec.name + "/")
                assert file_spec.format in readers.READERS
                assert file_spec.url or file_spec.how_to_get, file_spec.path
                assert file_spec.member is None or file_spec.url
                # Every raw label maps into the dataset's label list.
                assert set(spec.label_map(file_spec).values()) <= set(range(len(spec.labels)))
                for digest in (file_spec.sha256, file_spec.content_sha256):
                    assert digest is None or len(digest) == 64


def test_unknown_names():
    with pytest.raises(ValueError, match="unknown dataset 'mnli'; known: snli, multinli"):
        get_dataset("mnli")
    with pytest.raises(ValueError, match="no split 'valid'"):
        resolve_split("snli", "valid", "/nonexistent")


def test_missing_split_message(tmp_path):
    with pytest.raises(MissingDataError) as info:
        resolve_split("snli", "train", tmp_path)
    message = str(info.value)
    assert isinstance(info.value, FileNotFoundError)
    for path in ("snli/snli_1.0/snli_1.0_train.jsonl", "snli/snli_1.0_train.jsonl.gz"):
        assert str(tmp_path / path) in message
    assert "https://nlp.stanford.edu/projects/snli/snli_1.0.zip" in message
    assert "make data-snli" in message
    assert f"python experiments/download.py --dataset=snli --data_dir={tmp_path}" in message

    with pytest.raises(MissingDataError, match="drive.google.com"):
        resolve_split("quora", "train", tmp_path)
    with pytest.raises(MissingDataError, match="Kaggle"):
        resolve_split("multinli", "test_matched", tmp_path)


def test_available_splits(shared_data):
    assert registry.available_splits("snli", shared_data) == ["dev", "test"]
    assert registry.available_splits("sick", shared_data) == ["train", "dev", "test"]
    assert registry.available_splits("fever", shared_data) == ["paper_dev"]
    assert registry.available_splits("multinli", shared_data) == []


def test_official_layout_wins_over_derived(tmp_path):
    official = tmp_path / "scitail/SciTailV1.1/tsv_format/scitail_1.0_dev.tsv"
    derived = tmp_path / "scitail/re2_format/dev.txt.gz"
    official.parent.mkdir(parents=True)
    derived.parent.mkdir(parents=True)
    official.write_text("Premise .\tHypothesis .\tentails\nP2\tH2\tneutral\n")
    derived.write_bytes(gzip.compress(b"p\th\t1\n"))
    path, file_spec = resolve_split("scitail", "dev", tmp_path)
    assert path == official and file_spec.format == "scitail_tsv"
    assert [(ex.a, ex.label) for ex in read_split("scitail", "dev", tmp_path)] == [
        ("Premise .", 0),
        ("P2", 1),
    ]


def test_semeval_sick_through_generic_columns(tmp_path):
    path = tmp_path / "sick/SICK_trial.txt"
    path.parent.mkdir()
    path.write_text(
        "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
        "219\tA man sings\tA man is singing\t4.9\tENTAILMENT\n"
        "220\tA cat\tNo cat\t2.1\tCONTRADICTION\n"
    )
    examples = list(read_split("sick", "dev", tmp_path))
    assert [(ex.uid, ex.label) for ex in examples] == [("219", 0), ("220", 2)]


def test_multinli_test_is_unlabelled(tmp_path):
    path = tmp_path / "multinli/multinli_0.9_test_matched_unlabeled.jsonl"
    path.parent.mkdir()
    path.write_text('{"gold_label": "hidden", "pairID": "9", "sentence1": "a", "sentence2": "b"}\n')
    [example] = read_split("multinli", "test_matched", tmp_path)
    assert example.label is None and example.uid == "9"


def test_every_spec_round_trips_through_json():
    for spec in registry.DATASETS.values():
        assert registry.DatasetSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


def test_a_record_s_unread_keys_are_left_out():
    recorded = {**get_dataset("quora").to_dict(), "licence": "", "max_lengths": {"gcnn": [40, 40]}}
    assert registry.DatasetSpec.from_dict(recorded) == get_dataset("quora")


def test_input_labels_take_names_and_indices_unless_a_name_is_a_number():
    assert get_dataset("quora").input_labels() == {
        "0": 0,
        "1": 1,
        "non_duplicate": 0,
        "duplicate": 1,
    }
    # Yelp's names are star counts: "1" is the first class, not class 1.
    assert get_dataset("yelp").input_labels() == {str(s): s - 1 for s in range(1, 6)}


def test_adopting_a_dataset_keeps_a_registered_one(monkeypatch):
    monkeypatch.setattr(registry, "DATASETS", dict(registry.DATASETS))
    quora = get_dataset("quora")
    assert registry.adopt_dataset(dataclasses.replace(quora, labels=("a", "b"))) is quora
    mine = dataclasses.replace(quora, name="mine")
    assert registry.adopt_dataset(mine) is mine and get_dataset("mine") is mine
