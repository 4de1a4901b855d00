"""FEVER: claims with their gold Wikipedia evidence, and the claims with their evidence
sentences as context (ATTCONV Table 9)."""

import types

from gcnn_match.data.catalogue.layouts import mirror_file, split_table
from gcnn_match.data.registry import DatasetSpec, FileSpec, register_dataset

_FEVER_URL = "https://fever.ai/download/fever/{}.jsonl"
_FEVER_MIRROR = {
    "paper_dev": (
        "7b9330cc422745ead672cf972fcfe30f0ab7ed0ea90f2aa4ee2ee259111d5043",
        "41158707810008747946bf23471e82df53e77a513524b9e3ec1c2e674ef5ef8c",
    ),
}


_FEVER_CLAIM_SPLITS = ("train", "paper_dev", "paper_test", "shared_task_dev")
# FEVER claims with their evidence sentences as context (gcnn_match/data/fever.py), split
# "<split>.<setting>": what ATTCONV's Table 9 rows read. Context sentences a reader keeps per
# claim: the retrieved top 5; for gold [U→S] 10 (the union of a claim's gold sets has at most 10
# sentences for 98.9% of paper_dev's verifiable claims; the paper's Figure 8 goes past 5).
# Tokens kept per sentence: [U→S] 40 (docs/attconv.md#hyperparameters).
FEVER_CONTEXT_SENTENCES = types.MappingProxyType({"retrieved": 5, "gold": 10})
FEVER_SENTENCE_TOKENS = 40
_FEVER_CONTEXTS_HOW = (
    "built by `python experiments/prepare_fever.py --data_dir={data_dir} --evidence={setting} "
    "--splits={split}` from {data_dir}/fever/{split}.jsonl (the claims: `make data-fever`), "
    "{data_dir}/fever/wiki-pages/ (the unzipped https://fever.ai/download/fever/wiki-pages.zip, "
    "or the zip itself) and {data_dir}/fever/retrieved/{split}.jsonl, the top-5 retrieved "
    'sentences of every claim{use}: one JSON object per line with the keys "id" (the claim '
    'id) and "predicted_sentences" (its [page, line] pairs in rank order): the '
    "{split}.sentences.p5.s5.jsonl that the FEVER baseline's sentence retrieval writes "
    "(Thorne et al. 2018: github.com/sheffieldnlp/naacl2018-fever, src/scripts/retrieval/"
    "sentence/process_tfidf.py with --max_page=5 --max_sent=5), the evidence set the paper uses"
)


def _fever_split(name: str) -> tuple[FileSpec, ...]:
    split, _, setting = name.partition(".")
    if setting:
        use = " (used for NOT ENOUGH INFO claims, which have no gold evidence)" * (
            setting == "gold"
        )
        how = _FEVER_CONTEXTS_HOW.format(
            data_dir="{data_dir}", setting=setting, split=split, use=use
        )
        return (
            FileSpec(
                f"fever/contexts/{setting}/{split}.jsonl",
                "fever_contexts",
                how_to_get=how,
                options=types.MappingProxyType(
                    {
                        "max_sentences": FEVER_CONTEXT_SENTENCES[setting],
                        "sentence_len": FEVER_SENTENCE_TOKENS,
                    }
                ),
            ),
        )
    return (
        FileSpec(f"fever/{split}.jsonl", "fever_jsonl", url=_FEVER_URL.format(split)),
        mirror_file(
            f"fever/{split}.jsonl.gz", "fever_jsonl", None, *_FEVER_MIRROR.get(split, (None, None))
        ),
    )


register_dataset(
    DatasetSpec(
        name="fever",
        description="FEVER 1.0 claims with gold Wikipedia evidence ids; splits "
        "'<split>.<retrieved|gold>': the claims with their evidence sentences as context.",
        task="classification",
        labels=("SUPPORTS", "REFUTES", "NOT ENOUGH INFO"),
        splits=split_table(
            _fever_split,
            _FEVER_CLAIM_SPLITS
            + tuple(
                f"{split}.{setting}"
                for setting in FEVER_CONTEXT_SENTENCES
                for split in _FEVER_CLAIM_SPLITS
            ),
        ),
        resources=types.MappingProxyType(
            {
                "wiki-pages": (
                    FileSpec(
                        "fever/wiki-pages.zip",
                        "zip",
                        url="https://fever.ai/download/fever/wiki-pages.zip",
                        note="June 2017 Wikipedia dump: the evidence sentence text",
                    ),
                )
            }
        ),
        official_splits=("train", "paper_dev", "paper_test"),
    )
)
