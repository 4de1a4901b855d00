"""Answer selection, ranked per question: WikiQA and Yahoo! Answers MQA."""

import types

from gcnn_match.data.catalogue.layouts import indices, mirror_file, split_table
from gcnn_match.data.registry import DatasetSpec, FileSpec, register_dataset

_WIKIQA_ZIP = (
    "https://download.microsoft.com/download/E/5/F/"
    "E5FCFCEE-7005-4814-853D-DAA7C66507E0/WikiQACorpus.zip"
)
_WIKIQA_MIRROR = {
    "train.txt": "942d65db8ca780cf38905d403f17606274329a4f3c2037973ce6b3fabb0e61b2",
    "dev.txt": "ef7b38990d479fbfae5a1cd4a01b75a7f0cc5c277d15c9cddb888c6f0197d543",
    "test.txt": "957a23816df4c13056e0069fc30afbc6b56f676ba025b6c9c027fb71379e84e8",
    "dev.ref": "f79cb9958ed6ed5fd734d4b8957aa3398c33a4cd204469a25b020f7c72fc36da",
    "test.ref": "b54e30ce1311138309a9417b8ea018b9d26b58404f835d321338182ff0dabbe4",
    "dev.rank": "c9389e68d988e2aea01d4cd7da1dfa326e866f15fbe5055c0a6a5f396678df0f",
    "test.rank": "d588036fd3c7fc96e85956b9e2dce4ae601a3cfa79faa9fbf66361504799933a",
}


def _wikiqa(member: str, fmt: str, mirror_name: str | None = None) -> tuple[FileSpec, ...]:
    """A WikiQACorpus.zip member, then (if the mirror has it) the mirror's gzip copy."""
    labels = indices(2) if fmt == "wikiqa_tsv" else None
    official = FileSpec(f"wikiqa/{member}", fmt, url=_WIKIQA_ZIP, member=member, labels=labels)
    if mirror_name is None:
        return (official,)
    return (
        official,
        mirror_file(f"wikiqa/{mirror_name}.gz", fmt, labels, content=_WIKIQA_MIRROR[mirror_name]),
    )


def _wikiqa_split(split: str) -> tuple[FileSpec, ...]:
    return (
        *_wikiqa(f"WikiQACorpus/WikiQA-{split}.tsv", "wikiqa_tsv"),
        *_wikiqa(f"WikiQACorpus/WikiQA-{split}.txt", "wikiqa_tsv", f"{split}.txt"),
    )


# TREC qrels of the filtered evaluation (questions with a correct answer) and the CNN baseline's
# run file; formats "trec_qrels" / "trec_run" are read by the ranking metrics, not by READERS.
_WIKIQA_RESOURCES = types.MappingProxyType(
    {
        f"{split}_{kind}": _wikiqa(
            member, f"trec_{'qrels' if kind == 'ref' else 'run'}", f"{split}.{kind}"
        )
        for split in ("dev", "test")
        for kind, member in (
            ("ref", f"WikiQACorpus/WikiQA-{split}-filtered.ref"),
            ("rank", f"WikiQACorpus/emnlp-table/WikiQA.CNN.{split}.rank"),
        )
    }
)


_YAHOO_HOW = (
    "licensed (Yahoo! Webscope L6), not downloadable: build the candidate sets from your copy "
    "with `python experiments/build_yahoo.py --xml=<FullOct2007.xml.gz> --data_dir={data_dir}` "
    "(it writes train/dev/test with 1 + 4 candidates per question and test_10, the same test "
    "questions among 1 + 9 candidates)"
)
# question<TAB>answer<TAB>label<TAB>group, no header, label 1 = the best answer.
_YAHOO_COLUMNS = types.MappingProxyType({"fmt": "tsv", "a": 0, "b": 1, "label": 2, "group": 3})


def _yahoo_split(split: str) -> tuple[FileSpec, ...]:
    return (
        FileSpec(
            f"yahoo/{split}.tsv",
            "columns",
            how_to_get=_YAHOO_HOW,
            labels=indices(2),
            options=_YAHOO_COLUMNS,
        ),
    )


register_dataset(
    DatasetSpec(
        name="wikiqa",
        description="WikiQA answer sentence selection (candidates per question).",
        task="ranking",
        labels=("incorrect", "correct"),
        positive_label=1,
        splits=split_table(_wikiqa_split, ("train", "dev", "test")),
        resources=_WIKIQA_RESOURCES,
        # The candidate sentences ship tokenized (literal brackets); the questions are raw.
        tokenized_as="treebank-pretokenized",
    )
)
register_dataset(
    DatasetSpec(
        name="yahoo",
        description="Yahoo! Answers MQA (Liu et al. 2016 §6.4): a question's best "
        "answer among BM25-retrieved negatives, built from the user's copy.",
        task="ranking",
        labels=("incorrect", "correct"),
        positive_label=1,
        splits=split_table(_yahoo_split, ("train", "dev", "test", "test_10")),
        tokenized_as="treebank-pretokenized",  # written by experiments/build_yahoo.py
    )
)
