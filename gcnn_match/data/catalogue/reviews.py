"""Review rating: the Yelp split of Lin et al. (2017) and the offline stand-in for it."""

import types

from gcnn_match.data.catalogue.layouts import mirror_file, split_table
from gcnn_match.data.registry import DatasetSpec, FileSpec, register_dataset

_YELP_HOW = (
    "Lin et al. (2017) did not publish their Yelp split (500K train / 2,000 dev / 2,000 test, "
    "drawn from the Yelp Dataset Challenge 2016 reviews). Place the ATTCONV loader's files "
    "yelp_train_500k / yelp_valid_2000 / yelp_test_2000 (lines 'stars text') in {data_dir}/yelp/, "
    "or build {split}.jsonl files (keys text, stars) from review.json of "
    "https://www.yelp.com/dataset with a fixed seed, and record how. Offline, the dataset "
    "yelp_stars_standin (its own rows: reproduce.py --dataset=yelp_stars_standin) is another "
    "sample of the task, never read in place of these files."
)
_YELP_FILES = {"train": "yelp_train_500k", "dev": "yelp_valid_2000", "test": "yelp_test_2000"}


def _yelp_split(split: str) -> tuple[FileSpec, ...]:
    return (
        FileSpec(f"yelp/{_YELP_FILES[split]}", "yelp_tsv", how_to_get=_YELP_HOW),
        FileSpec(f"yelp/{split}.jsonl", "yelp_jsonl", how_to_get=_YELP_HOW),
    )


_STARS = ("1", "2", "3", "4", "5")
# Yue et al.'s processed reviews: csv with the header text,label1,label2; label1 (the business
# category) is not read, label2 is the rating. The generic column reader handles them.
_YELP_STANDIN_COLUMNS = types.MappingProxyType(
    {"fmt": "csv", "header": True, "a": "text", "b": "text", "label": "label2"}
)
_YELP_STANDIN_LABELS = types.MappingProxyType(
    {f"Review Stars: {stars}.0": index for index, stars in enumerate(_STARS)}
)
_YELP_STANDIN_MIRROR = {
    "dev": "c3eca3486566a3f949f192dcd9bb33ecd60cead9312a90060a374bc1ec29fdbc",
    "test": "8ec4a7352b5b54e68ebcb1d041ea45deda04e6f2d1d41bbb1eb24c5db3b4b0cf",
}


def _yelp_standin_split(split: str) -> tuple[FileSpec, ...]:
    return (
        mirror_file(
            f"yelp_stars_standin/{split}.csv.gz",
            "columns",
            _YELP_STANDIN_LABELS,
            content=_YELP_STANDIN_MIRROR[split],
            options=_YELP_STANDIN_COLUMNS,
        ),
    )


register_dataset(
    DatasetSpec(
        name="yelp",
        description="Yelp review star rating, Lin et al. (2017) split.",
        task="classification",
        labels=_STARS,
        splits=split_table(_yelp_split, ("train", "dev", "test")),
        single_text=True,
    )
)
# A dataset of its own, not a fallback FileSpec of "yelp": "yelp" keeps meaning the paper's
# split, its rows and records never mix in other reviews, and this sample's rows say what it is
# (docs/attconv.md#yelp-stand-in). Named after its folder in the offline mirror.
register_dataset(
    DatasetSpec(
        name="yelp_stars_standin",
        description="STAND-IN for the Yelp split of Lin et al. (2017) (ATTCONV Table 3), which is "
        "not obtainable offline: 5,000 dev + 5,000 test Yelp reviews with 1-5 stars, as Yue et "
        "al. (2023) processed them. Another sample of the same 5-way task, not Lin et al.'s "
        "split; class balance differs: majority 5★ = 44.8% on test. No train split, so only "
        "the low-resource scale applies (train on dev minus a held-out part, test on test); "
        "read by its own rows only, never in place of the paper's files.",
        task="classification",
        labels=_STARS,
        splits=split_table(_yelp_standin_split, ("dev", "test")),
        official_splits=(None, "dev", "test"),
        single_text=True,
    )
)
