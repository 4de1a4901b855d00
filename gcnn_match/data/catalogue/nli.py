"""The natural language inference datasets: SNLI, MultiNLI, SciTail and SICK."""

import types

from gcnn_match.data.catalogue.layouts import indices, mirror_file, re2_files, split_table
from gcnn_match.data.registry import DatasetSpec, FileSpec, register_dataset

_SNLI_ZIP = "https://nlp.stanford.edu/projects/snli/snli_1.0.zip"
_SNLI_MIRROR = {
    "dev": (
        "e5cfcc71b4846c40e06bae364a13312adeb434884e9a7cedf67037bdd212e39d",
        "9c03faff70182ef086ebfeed2cffbabb5fcc6a84a8b3314decbbb5b01f07f4bf",
    ),
    "test": (
        "ef5f0721f18e6aafd80f0d67aa2ef9784277aa08ba6a582c03fc381367282ac5",
        "1147550151ca8b16ddb31d8dc0e739a670a65f7c3e64aac5951eaeff103fb220",
    ),
}


def _snli_split(split: str) -> tuple[FileSpec, ...]:
    member = f"snli_1.0/snli_1.0_{split}.jsonl"
    return (
        FileSpec(f"snli/{member}", "nli_jsonl", url=_SNLI_ZIP, member=member),
        mirror_file(
            f"snli/snli_1.0_{split}.jsonl.gz",
            "nli_jsonl",
            None,
            *_SNLI_MIRROR.get(split, (None, None)),
        ),
    )


_MNLI_ZIP = "https://cims.nyu.edu/~sbowman/multinli/multinli_1.0.zip"
_MNLI_TEST_HOW = (
    "unlabelled; download multinli_0.9_test_{0}_unlabeled.jsonl from the Kaggle competition "
    "'multinli-{0}-open-evaluation' (labels are Kaggle-only: submit predictions there)"
)


def _mnli_split(split: str) -> tuple[FileSpec, ...]:
    if split.startswith("test_"):
        kind = split[len("test_") :]
        return (
            FileSpec(
                f"multinli/multinli_0.9_test_{kind}_unlabeled.jsonl",
                "nli_jsonl",
                how_to_get=_MNLI_TEST_HOW.format(kind),
                options=types.MappingProxyType({"unlabelled": True}),
            ),
        )
    member = f"multinli_1.0/multinli_1.0_{split}.jsonl"
    return (FileSpec(f"multinli/{member}", "nli_jsonl", url=_MNLI_ZIP, member=member),)


_SCITAIL_ZIP = "http://data.allenai.org.s3.amazonaws.com/downloads/SciTailV1.1.zip"
_SCITAIL_MIRROR = {
    "dev": (
        "4bfefab0b8d462147049dbfab53bc35641094480b5d6bc412651ff27177da499",
        "ad2f794fa600b519d94cb85ae6b418f8e45739ccc374af825027eef98b985a51",
    ),
    "test": (
        "0729f7ad94b61502bba5b75927f903c4120906aa89bdb7a453b3037c2a1b40ca",
        "548a0363930bf2348312febf72fe901340d2258e75f65d4800eeeddc49380bf4",
    ),
}


def _scitail_split(split: str) -> tuple[FileSpec, ...]:
    tsv = f"SciTailV1.1/tsv_format/scitail_1.0_{split}.tsv"
    jsonl = f"SciTailV1.1/snli_format/scitail_1.0_{split}.txt"
    return (
        FileSpec(
            f"scitail/{tsv}",
            "scitail_tsv",
            url=_SCITAIL_ZIP,
            member=tsv,
            labels=types.MappingProxyType({"entails": 0, "neutral": 1}),
        ),
        FileSpec(
            f"scitail/{jsonl}",
            "nli_jsonl",
            url=_SCITAIL_ZIP,
            member=jsonl,
            labels=types.MappingProxyType({"entailment": 0, "neutral": 1}),
        ),
        *re2_files(
            "scitail",
            split,
            indices(2),
            _SCITAIL_MIRROR.get(split, (None, None)),
            note='RE2 layout, LOSSY: re-tokenized, the characters - . # " / removed',
        ),
    )


_SICK_ZIP = "http://alt.qcri.org/semeval2014/task1/data/uploads/sick_{}.zip"
_SICK_FILES = {
    "train": ("train", "SICK_train.txt"),
    "dev": ("trial", "SICK_trial.txt"),
    "test": ("test_annotated", "SICK_test_annotated.txt"),
}
_SICK_MIRROR = {
    "train": "5c1c115e6c723418e5537a2ea133c713a4c787e5bbf28d7c81629fe9f4b0f622",
    "dev": "a4a2ad7ff3d082cf3303e491cc097991336251a3d028acecae037dc7de259ba5",
    "test": "ac8d2b5ea6af759d219a05bf65984ee54811c6352410ce12f1d444e746c11aa3",
}
# The SemEval-2014 files have a header: pair_ID, sentence_A, sentence_B, relatedness_score,
# entailment_judgment. The generic column reader handles them: no SICK-specific code.
_SICK_COLUMNS = types.MappingProxyType(
    {
        "fmt": "tsv",
        "header": True,
        "a": "sentence_A",
        "b": "sentence_B",
        "label": "entailment_judgment",
        "uid": "pair_ID",
    }
)


def _sick_split(split: str) -> tuple[FileSpec, ...]:
    zip_name, member = _SICK_FILES[split]
    return (
        FileSpec(
            f"sick/{member}",
            "columns",
            url=_SICK_ZIP.format(zip_name),
            member=member,
            labels=types.MappingProxyType({"ENTAILMENT": 0, "NEUTRAL": 1, "CONTRADICTION": 2}),
            options=_SICK_COLUMNS,
        ),
        *re2_files(
            "sick",
            split,
            indices(3),
            (None, _SICK_MIRROR[split]),
            how="RE2's prepare_sick.py: SICK.txt rows split by SemEval_set",
        ),
    )


_NLI3 = ("entailment", "neutral", "contradiction")

register_dataset(
    DatasetSpec(
        name="snli",
        description="Stanford NLI 1.0: 570K caption premise/hypothesis pairs.",
        task="classification",
        labels=_NLI3,
        splits=split_table(_snli_split, ("train", "dev", "test")),
        given_tokens_as="ptb-parse",
    )
)
register_dataset(
    DatasetSpec(
        name="multinli",
        description="Multi-Genre NLI 1.0: 433K pairs, matched/mismatched genres.",
        task="classification",
        labels=_NLI3,
        splits=split_table(
            _mnli_split,
            ("train", "dev_matched", "dev_mismatched", "test_matched", "test_mismatched"),
        ),
        # Test labels are Kaggle-only, so dev-mismatched is the labelled test split: the
        # low-resource scale trains on dev-matched (whose genres are train's) and tests across
        # genres, as mismatched test does; the rows select on a held-out part of their training
        # source (`gcnn_rows.MNLI_DATA`).
        official_splits=("train", "dev_matched", "dev_mismatched"),
        given_tokens_as="ptb-parse",
    )
)
register_dataset(
    DatasetSpec(
        name="scitail",
        description="SciTail v1.1: science-exam hypotheses vs web premises.",
        task="classification",
        labels=("entails", "neutral"),
        splits=split_table(_scitail_split, ("train", "dev", "test")),
    )
)
register_dataset(
    DatasetSpec(
        name="sick",
        description="SICK (SemEval-2014 Task 1) entailment; dev = the trial set.",
        task="classification",
        labels=_NLI3,
        splits=split_table(_sick_split, ("train", "dev", "test")),
    )
)
