"""Dataset registry: where each split's file lives, in which format, with which labels.

Adding a dataset is one `register_dataset(DatasetSpec(...))` here, plus a reader in readers.py
only when its file format is new.

Layout: every file sits at `{data_dir}/{dataset}/...`, matching the offline mirror, so
`--data_dir=/path/to/shared/data` works as is. Each split lists `FileSpec` candidates in priority
order: the official layout (what a user downloads and unpacks) first, then derived layouts such
as RE2's `a<TAB>b<TAB>label` files. `resolve_split` takes the first candidate present.

Checksums: `sha256` is the hash of the file's bytes on disk; `content_sha256` the hash of the
decompressed bytes of a `.gz` file. Only the offline mirror's files are pinned, with the values of
its SOURCE.md tables. Nobody recorded the hashes of the official downloads, so their FileSpecs
have `sha256=None`: they are fetched unverified and `download.verify()` reports them "unpinned".

`max_lengths` holds only cut-offs stated in a paper (GCNN §3.2, COIN §3.1 / App. A), keyed by
paper, as (max length of a, max length of b). COIN's LCQMC cut-off counts characters.
"""

import dataclasses
import pathlib
import types
from collections.abc import Iterator, Mapping

from gcnn_match.data.example import Example
from gcnn_match.data.readers import ReadStats, get_reader

PathLike = str | pathlib.Path


class MissingDataError(FileNotFoundError):
    """No candidate file of a split is present under the data directory."""


@dataclasses.dataclass(frozen=True)
class FileSpec:
    """One way a split can be stored.

    Attributes:
        path: relative to the data dir, `{dataset}/...`.
        format: a reader name from `readers.READERS`.
        url: official direct download, or None (then `how_to_get` says how to obtain it).
        member: the path inside the zip at `url` to extract to `path`; None when `url` is the file.
        sha256: hash of the bytes on disk, when known.
        content_sha256: hash of the decompressed bytes of a `.gz` file, when known.
        how_to_get: instructions when there is no direct URL (application form, Drive link...).
        labels: raw label string in this file -> class index; None = the dataset's label names.
        options: extra keyword arguments for the reader (e.g. `unlabelled=True`).
        note: caveat shown to the user (e.g. a lossy derived layout).
    """

    path: str
    format: str
    url: str | None = None
    member: str | None = None
    sha256: str | None = None
    content_sha256: str | None = None
    how_to_get: str | None = None
    labels: Mapping[str, int] | None = None
    options: Mapping[str, object] = dataclasses.field(default_factory=dict)
    note: str = ""


@dataclasses.dataclass(frozen=True)
class DatasetSpec:
    """Everything the project knows about one dataset.

    Attributes:
        name, description, homepage, licence: as shown to users.
        task: "classification" or "ranking" (candidates grouped by `Example.group`).
        language: ISO code of the text.
        labels: label names; the index is the class id.
        positive_label: the class whose F1 / ranking relevance is reported, where it matters.
        splits: split name -> FileSpec candidates, in priority order.
        resources: extra files that are not example splits (FEVER wiki-pages, WikiQA qrels).
        max_lengths: paper -> (max length of a, max length of b), as stated in that paper.
        official_splits: the official (train, dev, test) split names, which the scales read
            (`gcnn_match.data.experiment_data.apply_scale`); dev "holdout" = a held-out part of
            train, test None = no test split (a dataset of your own may have neither), train
            None = no train split (a stand-in sample: only the low-resource scale applies).
        single_text: the reader puts one text on both sides (a review to rate, not a pair).
    """

    name: str
    description: str
    task: str
    language: str
    labels: tuple[str, ...]
    homepage: str
    licence: str
    splits: Mapping[str, tuple[FileSpec, ...]]
    positive_label: int | None = None
    resources: Mapping[str, tuple[FileSpec, ...]] = dataclasses.field(default_factory=dict)
    max_lengths: Mapping[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    official_splits: tuple[str | None, str, str | None] = ("train", "dev", "test")
    single_text: bool = False

    def label_map(self, file_spec: FileSpec) -> Mapping[str, int]:
        """Raw label -> index for one file: its own mapping, else the label names."""
        if file_spec.labels is not None:
            return file_spec.labels
        return {name: i for i, name in enumerate(self.labels)}

    def input_labels(self) -> Mapping[str, int]:
        """Raw label -> index for a file given by hand (evaluate.py input): the label names,
        and the class indices too when no name is itself a number."""
        by_name = {name: i for i, name in enumerate(self.labels)}
        if any(name.strip().isdigit() for name in self.labels):
            return by_name
        return {**{str(i): i for i in range(len(self.labels))}, **by_name}

    def to_dict(self) -> dict:
        """The spec as JSON values: what a run directory records of its dataset."""
        return _json_values(self)

    @classmethod
    def from_dict(cls, values: Mapping) -> "DatasetSpec":
        """The spec `to_dict` wrote."""
        values = dict(values)
        for key in ("splits", "resources"):
            values[key] = {
                name: tuple(FileSpec(**file_spec) for file_spec in files)
                for name, files in values.get(key, {}).items()
            }
        values["max_lengths"] = {k: tuple(v) for k, v in values.get("max_lengths", {}).items()}
        for key in ("labels", "official_splits"):
            if key in values:
                values[key] = tuple(values[key])
        return cls(**values)


def _json_values(value):
    """Dataclasses, mappings and tuples as JSON's objects and lists."""
    if dataclasses.is_dataclass(value):
        return {f.name: _json_values(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: _json_values(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_json_values(v) for v in value]
    return value


def _indices(n: int) -> Mapping[str, int]:
    """Labels stored as the class index itself: "0" -> 0, ..."""
    return types.MappingProxyType({str(i): i for i in range(n)})


_MIRROR_HOW = "a gzip copy in the offline mirror; see {dataset}/SOURCE.md there for its origin"


def _mirror(
    path: str,
    fmt: str,
    labels=None,
    gz: str | None = None,
    content: str | None = None,
    note: str = "",
    options: Mapping[str, object] = types.MappingProxyType({}),
) -> FileSpec:
    """A file as the offline mirror stores it (gzipped, checksums from its SOURCE.md)."""
    return FileSpec(
        path,
        fmt,
        sha256=gz,
        content_sha256=content,
        labels=labels,
        options=options,
        note=note,
        how_to_get=_MIRROR_HOW.format(dataset=path.split("/")[0]),
    )


def _re2(
    dataset: str, split: str, labels, hashes=(None, None), note: str = "", how: str = ""
) -> tuple[FileSpec, ...]:
    """RE2's derived `a<TAB>b<TAB>label` layout: the mirror's `.txt.gz`, then the plain `.txt`
    that RE2's prepare scripts write (unpinned: a local re-run may differ)."""
    base = f"{dataset}/re2_format/{split}.txt"
    how = how or (
        f"written by data/prepare_{dataset}.py of alibaba-edu/"
        "simple-effective-text-matching from the official files"
    )
    return (
        _mirror(base + ".gz", "pair_label_tsv", labels, *hashes, note=note),
        FileSpec(base, "pair_label_tsv", labels=labels, how_to_get=how, note=note),
    )


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
        _mirror(
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
            labels=_indices(2),
        ),
        *_re2(
            "quora",
            split,
            _indices(2),
            _QUORA_MIRROR.get(split, (None, None)),
            note="RE2 layout q1<TAB>q2<TAB>label: the BiMPM pair ids are dropped",
        ),
    )


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
        *_re2(
            "scitail",
            split,
            _indices(2),
            _SCITAIL_MIRROR.get(split, (None, None)),
            note='RE2 layout, LOSSY: re-tokenized, the characters - . # " / removed',
        ),
    )


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
        _mirror(
            f"fever/{split}.jsonl.gz", "fever_jsonl", None, *_FEVER_MIRROR.get(split, (None, None))
        ),
    )


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
        _mirror(
            f"yelp_stars_standin/{split}.csv.gz",
            "columns",
            _YELP_STANDIN_LABELS,
            content=_YELP_STANDIN_MIRROR[split],
            options=_YELP_STANDIN_COLUMNS,
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
        FileSpec(f"lcqmc/{split}.txt", "pair_label_tsv", how_to_get=_LCQMC_HOW, labels=_indices(2)),
        _mirror(
            f"lcqmc/{split}.txt.gz",
            "pair_label_tsv",
            _indices(2),
            *_LCQMC_MIRROR.get(split, (None, None)),
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
        *_re2(
            "sick",
            split,
            _indices(3),
            (None, _SICK_MIRROR[split]),
            how="RE2's prepare_sick.py: SICK.txt rows split by SemEval_set",
        ),
    )


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
    labels = _indices(2) if fmt == "wikiqa_tsv" else None
    official = FileSpec(f"wikiqa/{member}", fmt, url=_WIKIQA_ZIP, member=member, labels=labels)
    if mirror_name is None:
        return (official,)
    return (
        official,
        _mirror(f"wikiqa/{mirror_name}.gz", fmt, labels, content=_WIKIQA_MIRROR[mirror_name]),
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
            labels=_indices(2),
            options=_YAHOO_COLUMNS,
        ),
    )


def _splits(make, names) -> Mapping[str, tuple[FileSpec, ...]]:
    return types.MappingProxyType({name: make(name) for name in names})


_NLI3 = ("entailment", "neutral", "contradiction")

DATASETS: dict[str, DatasetSpec] = {}


def register_dataset(spec: DatasetSpec) -> DatasetSpec:
    """Makes `spec` known under its name (once)."""
    if spec.name in DATASETS:
        raise ValueError(f"dataset {spec.name!r} registered twice")
    DATASETS[spec.name] = spec
    return spec


register_dataset(
    DatasetSpec(
        name="snli",
        description="Stanford NLI 1.0: 570K caption premise/hypothesis pairs.",
        task="classification",
        language="en",
        labels=_NLI3,
        homepage="https://nlp.stanford.edu/projects/snli/",
        licence="CC BY-SA 4.0",
        splits=_splits(_snli_split, ("train", "dev", "test")),
    )
)
register_dataset(
    DatasetSpec(
        name="multinli",
        description="Multi-Genre NLI 1.0: 433K pairs, matched/mismatched genres.",
        task="classification",
        language="en",
        labels=_NLI3,
        homepage="https://cims.nyu.edu/~sbowman/multinli/",
        licence="mostly OANC (free use); fiction genre under several permissive licences",
        splits=_splits(
            _mnli_split,
            ("train", "dev_matched", "dev_mismatched", "test_matched", "test_mismatched"),
        ),
        max_lengths=types.MappingProxyType({"gcnn": (60, 30)}),
        official_splits=("train", "dev_matched", "test_matched"),
    )
)
register_dataset(
    DatasetSpec(
        name="quora",
        description="Quora Question Pairs, BiMPM train/dev/test partition.",
        task="classification",
        language="en",
        labels=("non_duplicate", "duplicate"),
        positive_label=1,
        homepage="https://github.com/zhiguowang/BiMPM",
        licence="Quora dataset terms: non-commercial, subject to Quora's Terms of Service",
        splits=_splits(_quora_split, ("train", "dev", "test")),
        max_lengths=types.MappingProxyType({"gcnn": (40, 40), "coin": (32, 32)}),
    )
)
register_dataset(
    DatasetSpec(
        name="scitail",
        description="SciTail v1.1: science-exam hypotheses vs web premises.",
        task="classification",
        language="en",
        labels=("entails", "neutral"),
        homepage="https://allenai.org/data/scitail",
        licence="Apache-2.0",
        splits=_splits(_scitail_split, ("train", "dev", "test")),
    )
)
register_dataset(
    DatasetSpec(
        name="fever",
        description="FEVER 1.0 claims with gold Wikipedia evidence ids; splits "
        "'<split>.<retrieved|gold>': the claims with their evidence sentences as context.",
        task="classification",
        language="en",
        labels=("SUPPORTS", "REFUTES", "NOT ENOUGH INFO"),
        homepage="https://fever.ai/dataset/fever.html",
        licence="Wikipedia-derived, CC BY-SA: check the fever.ai terms before redistributing",
        splits=_splits(
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
register_dataset(
    DatasetSpec(
        name="yelp",
        description="Yelp review star rating, Lin et al. (2017) split.",
        task="classification",
        language="en",
        labels=_STARS,
        homepage="https://www.yelp.com/dataset",
        licence="Yelp Dataset Terms of Use (non-commercial, academic)",
        splits=_splits(_yelp_split, ("train", "dev", "test")),
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
        language="en",
        labels=_STARS,
        homepage="https://github.com/AI-secure/aug-pe",
        licence="Apache-2.0 (the repository); the reviews: Yelp Open Dataset terms "
        "(academic, non-commercial)",
        splits=_splits(_yelp_standin_split, ("dev", "test")),
        official_splits=(None, "dev", "test"),
        single_text=True,
    )
)
register_dataset(
    DatasetSpec(
        name="lcqmc",
        description="LCQMC: Chinese question matching (same intent or not).",
        task="classification",
        language="zh",
        labels=("different", "same"),
        positive_label=1,
        homepage="http://icrc.hitsz.edu.cn/Article/show/171.html",
        licence="research use, by application to HIT; do not redistribute",
        splits=_splits(_lcqmc_split, ("train", "dev", "test")),
        max_lengths=types.MappingProxyType({"coin": (50, 50)}),
    )
)
register_dataset(
    DatasetSpec(
        name="sick",
        description="SICK (SemEval-2014 Task 1) entailment; dev = the trial set.",
        task="classification",
        language="en",
        labels=_NLI3,
        homepage="https://marcobaroni.org/composes/sick.html",
        licence="CC BY-NC-SA 3.0",
        splits=_splits(_sick_split, ("train", "dev", "test")),
    )
)
register_dataset(
    DatasetSpec(
        name="wikiqa",
        description="WikiQA answer sentence selection (candidates per question).",
        task="ranking",
        language="en",
        labels=("incorrect", "correct"),
        positive_label=1,
        homepage="https://www.microsoft.com/en-us/download/details.aspx?id=52419",
        licence="Microsoft Research Data License Agreement (research use)",
        splits=_splits(_wikiqa_split, ("train", "dev", "test")),
        resources=_WIKIQA_RESOURCES,
    )
)
register_dataset(
    DatasetSpec(
        name="yahoo",
        description="Yahoo! Answers MQA (Liu et al. 2016 §6.4): a question's best "
        "answer among BM25-retrieved negatives, built from the user's copy.",
        task="ranking",
        language="en",
        labels=("incorrect", "correct"),
        positive_label=1,
        homepage="https://webscope.sandbox.yahoo.com/catalog.php?datatype=l",
        licence="Yahoo! Webscope data agreement (research use, no redistribution)",
        splits=_splits(_yahoo_split, ("train", "dev", "test", "test_10")),
    )
)


def adopt_dataset(spec: DatasetSpec) -> DatasetSpec:
    """Makes a dataset described outside this module (a run's dataset.json, a dataset file of
    your own) known to this process; a dataset registered under its name stays."""
    return DATASETS.setdefault(spec.name, spec)


def get_dataset(name: str) -> DatasetSpec:
    """The spec registered under `name`."""
    if name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(DATASETS)}")
    return DATASETS[name]


def _candidates(spec: DatasetSpec, split: str, kind: str = "split") -> tuple[FileSpec, ...]:
    table = spec.splits if kind == "split" else spec.resources
    if split not in table:
        raise ValueError(f"{spec.name} has no {kind} {split!r}; known: {', '.join(table)}")
    return table[split]


def missing_message(name: str, split: str, data_dir: PathLike, kind: str = "split") -> str:
    """What to place where for one split: every candidate, its source, and the command."""
    spec = get_dataset(name)
    lines = [f"{name} {kind} {split!r}: none of these files exists under {data_dir}:"]
    previous_how = None
    for file_spec in _candidates(spec, split, kind):
        lines.append(f"  - {pathlib.Path(data_dir) / file_spec.path}")
        if file_spec.url:
            source = file_spec.url + (f" (member {file_spec.member})" if file_spec.member else "")
            lines.append(f"      from {source}")
        if file_spec.how_to_get:
            how = file_spec.how_to_get.format(data_dir=data_dir, split=split)
            lines.append("      how: " + ("as above" if how == previous_how else how))
            previous_how = how
        if file_spec.note:
            lines.append(f"      note: {file_spec.note}")
    lines.append(
        f"Fetch what has a URL with `make data-{name} DATA_DIR={data_dir}` or "
        f"`python experiments/download.py --dataset={name} --data_dir={data_dir}`."
    )
    return "\n".join(lines)


def resolve_split(
    name: str, split: str, data_dir: PathLike, kind: str = "split"
) -> tuple[pathlib.Path, FileSpec]:
    """The first candidate file of `split` present under `data_dir`.

    `kind="resource"` resolves an extra resource (e.g. FEVER "wiki-pages") instead.
    Raises MissingDataError naming every candidate, its URL or how to get it.
    """
    for file_spec in _candidates(get_dataset(name), split, kind):
        path = pathlib.Path(data_dir) / file_spec.path
        if path.is_file():
            return path, file_spec
    raise MissingDataError(missing_message(name, split, data_dir, kind))


def read_split(
    name: str, split: str, data_dir: PathLike, stats: ReadStats | None = None
) -> Iterator[Example]:
    """Stream the examples of one split through the reader of the file found."""
    path, file_spec = resolve_split(name, split, data_dir)
    reader = get_reader(file_spec.format)
    return reader(
        path, labels=get_dataset(name).label_map(file_spec), stats=stats, **file_spec.options
    )


def available_splits(name: str, data_dir: PathLike) -> list[str]:
    """The splits of `name` with a file present under `data_dir`, in registry order."""
    spec = get_dataset(name)
    return [
        split
        for split, files in spec.splits.items()
        if any((pathlib.Path(data_dir) / f.path).is_file() for f in files)
    ]
