"""The question pair datasets: Quora (BiMPM's partition) and LCQMC."""

from gcnn_match.data.catalogue.layouts import indices, mirror_file, re2_files, split_table
from gcnn_match.data.registry import DatasetSpec, FileSpec, register_dataset

_QUORA_HOW = (
    "BiMPM partition (Wang et al. 2017): download Quora_question_pair_partition.zip from "
    "https://drive.google.com/file/d/0B0PlTAo--BnaQWlsZl9FZ3l1c28/view (linked from "
    "github.com/zhiguowang/BiMPM) and unzip it into {data_dir}/quora/"
)
_QUORA_MIRROR = {
    "dev": (
        "a8f73b8cad6ddb21c58327e1c4b89d3656c276979ec3823f3f031c34dd6cecc9",
        "085ad8687ccbe82f935eb251b7e0888a1076c11471d8d8d1e9ece15112bf7753",
    ),
    "test": (
        "9350adc4cac6fb69c9e6eb7b61b927a8a1bd4ab84f95fff2a533b88eb7ee6f3e",
        "1857395803460c266914bc43180a5620864d698bbc3d1cc74fb25357c23c76cd",
    ),
}


def _quora_split(split: str) -> tuple[FileSpec, ...]:
    return (
        FileSpec(
            f"quora/Quora_question_pair_partition/{split}.tsv",
            "bimpm_tsv",
            how_to_get=_QUORA_HOW,
            labels=indices(2),
        ),
        *re2_files(
            "quora",
            split,
            indices(2),
            _QUORA_MIRROR.get(split, (None, None)),
            note="RE2 layout q1<TAB>q2<TAB>label: the BiMPM pair ids are dropped",
        ),
    )


_LCQMC_HOW = (
    "LCQMC (Liu et al., COLING 2018) is released by HIT on application: request it at "
    "http://icrc.hitsz.edu.cn/Article/show/171.html and place train.txt, dev.txt, test.txt "
    "(text_a<TAB>text_b<TAB>label) in {data_dir}/lcqmc/"
)
_LCQMC_MIRROR = {
    "dev": (
        "8014fc2a2d855a922532d9dd25d0b64f06864a1e8eae04d839a0a7d05f8c00cc",
        "d3cd41ed89b8f6196a76ebff2aa03d5ecf42edcd12942aa865d34f7e570af7c2",
    ),
    "test": (
        "f3458f81a1544f6d4b003152bd55541ee074aa9cff6392d46fd855a8c742ff31",
        "8969f9c16050f40df9da6f591443a47bc14c17a504a354ee4cc4ab5b9aa303d9",
    ),
}


def _lcqmc_split(split: str) -> tuple[FileSpec, ...]:
    return (
        FileSpec(f"lcqmc/{split}.txt", "pair_label_tsv", how_to_get=_LCQMC_HOW, labels=indices(2)),
        mirror_file(
            f"lcqmc/{split}.txt.gz",
            "pair_label_tsv",
            indices(2),
            *_LCQMC_MIRROR.get(split, (None, None)),
        ),
    )


register_dataset(
    DatasetSpec(
        name="quora",
        description="Quora Question Pairs, BiMPM train/dev/test partition.",
        task="classification",
        labels=("non_duplicate", "duplicate"),
        positive_label=1,
        splits=split_table(_quora_split, ("train", "dev", "test")),
        # The BiMPM files ship Stanford PTB tokens ("in class ?", "ca n't", -LRB-).
        tokenized_as="ptb-pretokenized",
    )
)
register_dataset(
    DatasetSpec(
        name="lcqmc",
        description="LCQMC: Chinese question matching (same intent or not).",
        task="classification",
        labels=("different", "same"),
        positive_label=1,
        splits=split_table(_lcqmc_split, ("train", "dev", "test")),
    )
)
