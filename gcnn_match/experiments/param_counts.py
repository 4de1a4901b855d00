"""The parameter counts the papers print, each table's one counting convention, and ours.

A table that prints parameter counts counts them one way (embeddings? biases? the output
layer? at which widths?). `CONVENTIONS` states that way once per table id, and
`Convention.count` applies it to the built Keras model of every row of the table, baselines
included; an ensemble row counts its members. The paper's number is the row's "params" target
and is compared at the precision it is printed with ("45K" is 44,500-45,500); a variant row
of a table, with no paper numbers (targets), is counted and listed without one, and so is a
row the paper reports without a count (its convention's `uncounted`). A row that does
not match is listed in its convention's `mismatches` with the reason, never counted another
way; tests/experiments/test_param_counts.py asserts that the listed rows do not match and that
every other row does. docs/<paper>.md#parameter-counts derives the numbers.

The GCNN paper prints no counts, and neither do COIN's Table 1 (LCQMC) and the C-LSTM
paper's Table 4: their tables have no convention.
"""

import dataclasses
import math
from typing import Mapping

from gcnn_match.data.registry import get_dataset
from gcnn_match.experiments import registry
from gcnn_match.experiments.registry import slug
from gcnn_match.models.registry import ModelInputs, build_model, input_features

PAPER_KEY = "params"  # the target key of a paper's count
OUTPUT_LAYERS = ("logits", "score")  # what every builder names its output layer


@dataclasses.dataclass(frozen=True)
class Convention:
    """How one paper table counts parameters.

    Args:
        table: the paper's table and column, e.g. "Table 7 '#para'".
        embedding_width: the word-vector width e the paper counted at; every row of the
            table registers it as `embedding_width`.
        widths: the other widths, as the paper gives or as fitted, e.g. "d = 300".
        biases: biases are counted.
        output_layer: the output layer (`OUTPUT_LAYERS`) is counted.
        mismatches: experiment name -> why its count differs from the paper's.
        uncounted: experiment name -> where the paper reports the row without a count.
    """

    table: str
    embedding_width: int
    widths: str
    biases: bool
    output_layer: bool
    mismatches: Mapping[str, str] = dataclasses.field(default_factory=dict)
    uncounted: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def describe(self):
        biases = "with" if self.biases else "without"
        output = "with" if self.output_layer else "without"
        return (
            f"trainable weights without the embedding tables, {biases} biases, {output} the "
            f"output layer; e = {self.embedding_width}, {self.widths}"
        )

    def count(self, model):
        """The parameters of the built `model` by this convention: each variable once, so
        shared weights count once."""
        skipped = set()
        if not self.output_layer:
            names = [layer.name for layer in model.layers if layer.name in OUTPUT_LAYERS]
            if not names:
                raise ValueError(f"{model.name} has no output layer named one of {OUTPUT_LAYERS}")
            skipped = {id(w) for w in model.get_layer(names[0]).weights}
        return sum(
            math.prod(w.shape)
            for w in model.trainable_weights
            if w.name != "embeddings"  # the table of every keras.layers.Embedding
            and (self.biases or not w.name.endswith("bias"))
            and id(w) not in skipped
        )


CONVENTIONS = {
    "attconv-snli": Convention(
        table="Table 7 '#para'",
        embedding_width=300,
        widths="d = 300, filter width 3",
        biases=False,
        output_layer=False,
        mismatches={
            "attconv/snli/attconv_advanced": (
                "Eq. 7-13 have 13 d² weights with f_bene = Eq. 10's unigram f_gconv (f_mgran "
                "8 d², shared by source and focus, W1 3 d², W2 2 d²): 1.17M; 15 d² = 1.35M "
                "with a separate f_bene; the paper's 10 d² needs W_h = W_g inside f_gconv, "
                "against Eq. 7-8 ([docs/attconv.md](docs/attconv.md#parameter-counts))"
            ),
            "attconv/snli/bi_lstm_bowman_et_al_2015": (
                "Bowman et al.'s model as they describe it (a tanh map 300 -> 100, one 100-d "
                "LSTM for both texts, three 200-d tanh layers) has 30,000 + 80,000 + 120,000 "
                "weights by this convention (231,703 with biases and the softmax layer); the "
                "table copies the SNLI leaderboard's 220k for it, which no reading we found "
                "gives ([docs/attconv.md](docs/attconv.md#bi-lstm-bowman-et-al-2015))"
            ),
            "attconv/snli/enhanced_lstm_chen_et_al_2017b": (
                "the table's 7.7M (and 88.6) are Chen et al.'s HIM, ESIM combined with a "
                "syntactic tree-LSTM; the row trains their sequential ESIM, 4,326,303 with "
                "biases and the softmax layer (their 4.3M) "
                "([docs/attconv.md](docs/attconv.md#enhanced-lstm))"
            ),
            "attconv/snli/abcnn_yin_et_al_2016": (
                "ATTCONV's ABCNN attends in pooling only (§2.2, Fig. 3, Fig. 6(b)) and that "
                "pooling has no weights, so the width-3 convolution's 900 x 300 is all; 834K "
                "is what a two-layer ABCNN with ABCNN-1's input attention in its first layer "
                "would have at s = 40 (2 x 3 d² + 2 x 40 d + 3 d²), which the text does not "
                "describe ([docs/attconv.md](docs/attconv.md#abcnn))"
            ),
        },
    ),
    "c-lstms-snli": Convention(
        table="Table 2 |θ|_M",
        embedding_width=100,
        widths="k = 50 (C-LSTMs) or 100 (baselines), as the table prints",
        biases=False,
        output_layer=False,
        mismatches={
            **{
                f"clstm/snli/{slug(row)}": (
                    "text reading: separate weights for LC's two LSTMs (§3.3: 'two separated "
                    "LSTMs'), twice the LSTM weights; the shared reading reproduces the count: "
                    f"see variant row '{row}, shared LSTM pair'"
                )
                for row in ("LC-LSTMs (Single Direction)", "LC-LSTMs", "four stacked LC-LSTMs")
            },
            "clstm/snli/single_lstm_rocktaschel_et_al_2015": (
                "Table 2 copies the count of Rocktäschel et al., who read 300-d word2vec; "
                "this row reads the 100-d vectors with no projection (with a 300 -> 100 "
                "projection, biases and the softmax layer: 110,803)"
            ),
            "clstm/snli/parallel_lstms_bowman_et_al_2015": (
                "Table 2 copies the count of Bowman et al.'s own model; this row is §6.2's "
                "description: two separate LSTMs over the 100-d vectors, a 2-layer MLP"
            ),
            "clstm/snli/attention_lstms_rocktaschel_et_al_2015": (
                "Table 2 copies the count of Rocktäschel et al., who read 300-d word2vec; "
                "this row reads the 100-d vectors with no projection (with a 300 -> 100 "
                "projection, biases and the softmax layer: 231,303)"
            ),
            "clstm/snli/attention_w_by_w_lstms_rocktaschel_et_al_2015": (
                "Table 2 copies the count of Rocktäschel et al., who read 300-d word2vec; "
                "this row reads the 100-d vectors with no projection (with a 300 -> 100 "
                "projection, biases and the softmax layer: 251,303)"
            ),
        },
        uncounted={
            "clstm/snli/stacked_attention_lstm_footnote_2": ("footnote 2 gives its accuracy only"),
        },
    ),
    "coin-quora": Convention(
        table="Table 2 'Params'",
        embedding_width=300,
        widths=(
            "d = 225 fitted to the 6.5M (the paper tuned d over 150-300) with the widths of "
            "W_c, F1 and G1-G3 equal to d; those equalities, n_h = 5 and the prediction head "
            "are choices the one count cannot pin down"
        ),
        biases=True,
        output_layer=True,
        mismatches={
            "coin/quora/coin_ensemble": (
                "5 members of 6,522,077 are 32,610,385 (32.6M); the paper's 32.5M is 5 × its "
                "rounded 6.5M"
            ),
        },
    ),
}


def row_count(config):
    """`config`'s model built at its registered widths, counted by its table's convention;
    an ensemble row counts all its members."""
    convention = CONVENTIONS[registry.table_id(config)]
    if config.embedding_width is None:
        raise ValueError(f"{config.name}: no embedding_width, so no width to count at")
    features = input_features(config.model, **config.model_kwargs)
    inputs = ModelInputs(
        vocab_size=10,  # the embeddings are not counted
        num_classes=len(get_dataset(config.dataset).labels),
        embedding_dim=config.embedding_width,
        embeddings_trainable=config.embeddings_trainable,
        char_vocab_size=10 if features.chars else None,
        pos_vocab_size=10 if features.pos else None,
        segments=features.segments,
    )
    model = build_model(config.model, inputs, **config.model_kwargs)
    return convention.count(model) * max(1, config.ensemble_size)


def _unit(paper):
    return (1_000_000, "M") if paper >= 1_000_000 else (1_000, "K")


def printed(paper):
    """A count as the papers print it: 77_500 -> "77.5K", 6_500_000 -> "6.5M"."""
    unit, suffix = _unit(paper)
    return f"{paper / unit:.6f}".rstrip("0").rstrip(".") + suffix


def matches(ours, paper):
    """Whether `ours` rounds to the paper's printed number: within half its last digit."""
    unit, _ = _unit(paper)
    decimals = len(printed(paper)[:-1].partition(".")[2])
    return abs(ours - paper) <= unit * 10**-decimals / 2


def mismatch(config, ours):
    """Why `ours`, the count of registered row `config`, differs from its paper's count, in
    words; None where it matches, or the paper prints none for the row."""
    paper = config.targets.get(PAPER_KEY)
    if paper is None or matches(ours, paper):
        return None
    reason = CONVENTIONS[registry.table_id(config)].mismatches.get(config.name)
    return f"paper {printed(paper)}, ours {ours:,}, no match: {reason or 'not a listed mismatch'}"


def render_markdown(table):
    """The paper's counts beside ours for a report table ("" for a table without counts): one
    line for the rows whose count matches the paper's, one for the rows the paper does not
    have, and one per mismatch with its reason."""
    convention = CONVENTIONS.get(table)
    if convention is None:
        return ""
    matching, variants, uncounted, mismatches = [], [], [], []
    for config in registry.select(table=table):
        paper, ours = config.targets.get(PAPER_KEY), row_count(config)
        if config.name in convention.uncounted:
            uncounted.append(f"{config.row} {ours:,} ({convention.uncounted[config.name]})")
        elif paper is None:  # a variant row: no paper number of its own
            variants.append(f"{config.row} {ours:,}")
        elif matches(ours, paper):
            matching.append(f"{config.row} {printed(paper)} / {ours:,}")
        else:
            mismatches.append(f"- {config.row}: {mismatch(config, ours)}.")
    lines = [
        "",
        f"Parameter counts, {convention.table}: {convention.describe()}. Ours is counted so "
        "on the model of each registered row at these widths "
        "(`gcnn_match/experiments/param_counts.py`); the params column above is each run's "
        "Keras count at the width it read.",
        "",
    ]
    if matching:
        lines.append(f"- Match the paper (paper / ours): {'; '.join(matching)}.")
    if variants:
        lines.append(f"- Not rows of the paper (ours): {'; '.join(variants)}.")
    if uncounted:
        lines.append(f"- No count in the paper (ours): {'; '.join(uncounted)}.")
    return "\n".join(lines + mismatches) + "\n"
