"""GCNN's claims (Chen et al., Interspeech 2018, §4; Tables 1 and 2).

MultiNLI's test labels are Kaggle-only, so the Table 1 claims are checked on dev-matched and
on dev-mismatched (the rows' test split), neither of which selects the checkpoint (the rows'
`compare` pairs; docs/gcnn.md#known-mismatches).
"""

from gcnn_match.claims.registry import Claim, register

_CNN = "It can be found that CNN is inferior to GCNN in terms of accuracy."
_GLU = "It can be found that GCNN performs better than GLU in terms of accuracy."
_CHAR = (
    "additional character features into the inputs, which shows the effectiveness of "
    "character features."
)
_POS = "Similar conclusions can be drawn for part-of-speech tagging features."
_SPEED = "it can be observed that the training speed of GCNN is clearly faster than that of ESIM."
_QUORA = "In Table 2, the results again demonstrate the superiority of our approach."
_SPEED_AND_ACCURACY = (
    "Experiments on standard benchmark datasets show the effectiveness of our model in terms of "
    "both accuracy and computation speed."
)
# Table 2's cells, as the paper's text file spells them.
_QUORA_CELLS = {
    "cnn": "CNN 87.92 660",
    "glu": "GLU 88.32 692",
    "gcnn": "GCNN 88.66 870",
    "gcnn_char": "GCNN (char) 88.94 1740",
    "gcnn_char_pos": "GCNN (char+POS) 89.35 1770",
}
_MNLI = {"dev_matched_accuracy": "matched", "test_accuracy": "mismatched"}


def _claim(dataset, statement, a, b, metric, quote, expected="greater", margin=None, cited=()):
    """A claim between rows of `dataset`'s table; a cited row keeps the paper's name."""
    a, b = (name if name in dict(cited) else f"gcnn/{dataset}/{name}" for name in (a, b))
    register(
        Claim(
            paper="GCNN",
            statement=statement,
            a=a,
            b=b,
            metric=metric,
            expected=expected,
            quote=quote,
            margin=margin,
            cited=cited,
        )
    )


def _quora_cells(a, b):
    """Table 2's cells of rows `a` and `b`, in the table's order."""
    return " [...] ".join(cells for row, cells in _QUORA_CELLS.items() if row in (b, a))


# The claims of the Table 1 paragraph hold for Table 2 by its own sentence, beside its cells.
for _a, _b, _statement, _quote in (
    ("gcnn", "cnn", "GCNN beats CNN", f"{_QUORA} [...] {_quora_cells('gcnn', 'cnn')}"),
    ("gcnn", "glu", "GCNN beats GLU", f"{_QUORA} [...] {_quora_cells('gcnn', 'glu')}"),
    (
        "gcnn",
        "gcnn_forget_gate",
        "removing the forget gate hurts",
        "The performance drops to 88.33% with this replacement.",
    ),
    (
        "gcnn",
        "gcnn_output_gate",
        "removing the output gate hurts",
        "It shows that the performance drops to 88.35% without the output gate.",
    ),
    (
        "gcnn_char",
        "gcnn",
        "character features help",
        f"{_QUORA} [...] {_quora_cells('gcnn_char', 'gcnn')}",
    ),
    (
        "gcnn_char_pos",
        "gcnn_char",
        "POS features help on top of characters",
        f"{_QUORA} [...] {_quora_cells('gcnn_char_pos', 'gcnn_char')}",
    ),
    (
        "gcnn",
        "esim_our_implement",
        "GCNN beats ESIM on Quora",
        "GCNN performs better than ESIM in terms of accuracy on Quora dataset.",
    ),
):
    _claim("quora", _statement, _a, _b, "test_accuracy", _quote)

# The tables' times also put CNN's epoch below GCNN's, but no sentence compares them: a
# direction only the cells show is not registered as the paper's.
_claim(
    "quora",
    "ESIM's epoch takes longer than GCNN's",
    "esim_our_implement",
    "gcnn",
    "seconds_per_epoch",
    f"{_SPEED_AND_ACCURACY} [...] ESIM (our implement) 87.65 4038 GCNN 88.66 870",
)

for _metric, _split in _MNLI.items():
    for _a, _b, _statement, _quote in (
        ("gcnn", "cnn", "GCNN beats CNN", _CNN),
        ("gcnn", "glu", "GCNN beats GLU", _GLU),
        ("gcnn_char", "gcnn", "character features help", _CHAR),
        ("gcnn_char_pos", "gcnn_char", "POS features help on top of characters", _POS),
    ):
        _claim("multinli", f"{_statement} ({_split})", _a, _b, _metric, _quote)
    # The paper's gaps it calls "nearly equal" are 0.2 and 0.3 points; within one point
    # counts as comparable here [U→S].
    _claim(
        "multinli",
        f"GCNN is comparable to ESIM ({_split})",
        "gcnn",
        "esim_our_implement",
        _metric,
        "GCNN performs nearly equal to ESIM in terms of accuracy on MultiNLI dataset.",
        expected="equivalent",
        margin=0.01,
    )

_claim(
    "multinli",
    "ESIM's epoch takes longer than GCNN's",
    "esim_our_implement",
    "gcnn",
    "seconds_per_epoch",
    f"{_SPEED} [...] ESIM (our implement) 76.8 75.5 9610 GCNN 76.6 75.8 2412",
)

# Table 2's rows from other work: BiMPM [12] and DIIN [24], as the paper prints them.
_claim(
    "quora",
    "GCNN beats BiMPM without character features",
    "gcnn",
    "BiMPM [12]",
    "test_accuracy",
    "Table 2 shows that GCNN outperforms BiMPM even without character features.",
    cited=(("BiMPM [12]", 0.8817),),
)
_claim(
    "quora",
    "GCNN (char+POS) beats DIIN",
    "gcnn_char_pos",
    "DIIN [24]",
    "test_accuracy",
    "It can be observed that our GCNN (char+POS) outperforms DIIN on the Quora dataset.",
    cited=(("DIIN [24]", 0.8906),),
)
