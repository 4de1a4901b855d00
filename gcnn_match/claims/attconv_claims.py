"""ATTCONV's claims (Yin & Schütze, TACL 2018, §4; Tables 3, 5, 7 and 9).

Table 3's are checked on the paper's Yelp split and on the offline stand-in sample, whose table
("Table 3 (Yelp stand-in)") and dataset name say that it is one; the rows it cites from other
work are in the paper's split's table only.

FEVER's Table 9 reports dev numbers, and one test row; our FEVER rows are compared on the
paper's test split (docs/attconv.md#targets). Label accuracy ("ALL", and the gold-evidence
column) and the FEVER score ("SUB": the label right and, for a verifiable claim, a complete
gold evidence set among the first five retrieved sentences) are both means over claims that
the records hold (`training/fever_score.py`); the claims against cited rows measure nothing of
ours. The test row ("ATTCONV" against Thorne et al.'s Decomp-Att) is set against the cited row
with the rows' test target (`Claim.paper_key`).
"""

from gcnn_match.claims.registry import Claim, register
from gcnn_match.experiments import registry as experiments

_ATTENTIVE_POOLING = (
    "The comparisons in both SCITAIL and SNLI show that: [...] CNNs with attentive convolution "
    "(i.e., ATTCONV) outperform the CNNs with attentive pooling (i.e., ABCNN and APCNN)"
)
_STATE_OF_THE_ART = (
    "ATTCONV outperforms competitive DNNs with and without attention and achieves "
    "state-of-the-art on the three tasks."
)
# §4.1: the comparisons every task's experiments are set up to make (SNLI is none of the
# introduction's "three tasks").
_ASPECTS = (
    "All experiments are designed to explore comparisons in three aspects: (i) within ATTCONV, "
    "“light” vs. “advanced”; (ii) “attentive convolution” vs. “attentive pooling”/“attention "
    "only”"
)
_COMMON_BASELINES = (
    "we always report “light” and “advanced” ATTCONV performance and compare against five types "
    "of common baselines: (i) w/o context; (ii) w/o attention; (iii) w/o convolution"
)
_SCITAIL_BASELINES = (
    "“w/o convolution” and attentive pooling (i.e., ABCNN & APCNN) get lower performances by 3%–4%"
)
# §4.1's method sentences: the comparisons each task's experiments are set up to make. A claim
# quoting one has no sentence of the results that ranks its pair (`Claim.method_quote`).
_METHOD = (_ASPECTS, _COMMON_BASELINES)
# The cited rows the authors ran themselves (`Claim.authors_ran`): "We also reimplement
# MultichannelCNN (Kim, 2014)" (§4.2); §4.1's common baselines "(iv) with attention: RNNs with
# attention and CNNs with attentive pooling", reported in every task: the attentive-LSTM,
# ABCNN and APCNN of Tables 3, 5 and 9, Table 7's ABCNN beside its APCNN (a row registered
# here), and Table 3's CNN+internal attention, "essentially weighted mean pooling, similar to
# the attentive pooling". FEVER's rows from other work are "the two systems explored by Thorne
# et al. (2018)", MLP and Decomp-Att. Taken from other work: Table 3's "Lin et al." rows
# ("Three baselines from Lin et al. (2017)", and their RNN Self-Attention), SciTail's "systems
# covered by Khot et al. (2018)" (Enhanced LSTM, DGEM), and Table 7's systems at the cells
# their papers print (Attentive-LSTM (Rocktäschel): 83.5 with 250K, Rocktäschel et al.'s
# word-by-word attention as the C-LSTMs' Table 2 prints it, 83.5 with 252K).
_AUTHORS_RAN = {
    "MultichannelCNN (Kim)",
    "CNN+internal attention",
    "ABCNN",
    "APCNN",
    "Attentive-LSTM",
    "ABCNN (Yin et al., 2016)",
}
_SNLI_ADVANCED = (
    "ATTCONV (advanced) surpasses [...] all “w/o attention” baselines and “with attention” "
    "CNN baselines (i.e., attentive pooling)"
)
_FEVER_ADVANCED = "“advanced-ATTCONV” consistently outperforms its “light” counterpart."
# Table 9's cells, as the paper's text file spells them.
_LIGHT_WISE = "light,context-wise 57.78 34.29 83.20"
_LIGHT_CONC = "light,context-conc 59.31 37.75 84.74"
# The text describes context-wise and context-conc without ranking them, so their cells
# make no claim here.
_FEVER = (
    (
        "light_context_wise",
        "light_context_wise_w_o_conv",
        "light, context-wise, beats w/o conv.",
        f"{_COMMON_BASELINES} [...] {_LIGHT_WISE} w/o conv. 47.29 25.94 73.18",
    ),
    (
        "light_context_conc",
        "light_context_conc_w_o_conv",
        "light, context-conc, beats w/o conv.",
        f"{_COMMON_BASELINES} [...] {_LIGHT_CONC} w/o conv. 48.02 26.67 73.44",
    ),
    (
        "advan_context_wise",
        "light_context_wise",
        "advanced beats light (context-wise)",
        _FEVER_ADVANCED,
    ),
    (
        "advan_context_conc",
        "light_context_conc",
        "advanced beats light (context-conc)",
        _FEVER_ADVANCED,
    ),
)


def _claim(dataset, statement, a, b, quote, metric="test_accuracy", **fields):
    """A claim between rows of `dataset`'s table; a cited row (`cited`) keeps the paper's name,
    unless the table registers a row the paper prints so (`_registered`): then the claim is
    between registered rows. It is a method quote where `quote` opens with a sentence of
    `_METHOD`, and the cited row is the authors' own where it is one of `_AUTHORS_RAN`."""
    cited = dict(fields.pop("cited", ()))
    built = {name: slug for name in cited if (slug := _registered(dataset, name))}
    cited = {name: value for name, value in cited.items() if name not in built}
    a, b = (built.get(name, name) for name in (a, b))
    a, b = (name if name in cited else f"attconv/{dataset}/{name}" for name in (a, b))
    fields["cited"] = tuple(cited.items())
    fields.setdefault("expected", "greater")
    fields.setdefault("method_quote", quote.startswith(_METHOD))
    fields.setdefault("authors_ran", bool(set(cited) & _AUTHORS_RAN))
    register(
        Claim(
            paper="ATTCONV",
            statement=statement,
            a=a,
            b=b,
            metric=metric,
            quote=quote,
            **fields,
        )
    )


def _registered(dataset, name):
    """The name (without its table) of the row of `dataset`'s tables that the paper prints as
    `name`, where they register one (the baselines built here); else None."""
    for config in experiments.select(paper="ATTCONV", dataset=dataset):
        if config.row == name:
            return config.name.rsplit("/", 1)[-1]
    return None


def _printed(dataset, row):
    """Registered row `row` of `dataset` as the paper prints it."""
    return experiments.get(f"attconv/{dataset}/{row}").row


def _cited(dataset, a, name, value, quote, metric="test_accuracy", statement=None, **fields):
    """Row `a` of `dataset` against the row `name` the paper cites with `value` (a fraction,
    or a parameter count)."""
    statement = statement or f"{_printed(dataset, a)} beats {name}"
    _claim(dataset, statement, a, name, quote, metric, cited=((name, value),), **fields)


# Table 3's claims on Lin et al.'s split and on the offline stand-in sample, each against the
# rows of its own table (docs/attconv.md#yelp-stand-in).
for _dataset in ("yelp", "yelp_stars_standin"):
    _claim(
        _dataset,
        "advanced beats light",
        "advanced",
        "light",
        "advanced-ATTCONV surpasses its “light” counterpart",
    )
    _claim(
        _dataset,
        "light beats w/o convolution",
        "light",
        "w_o_convolution",
        f"{_COMMON_BASELINES} [...] light 66.75 w/o convolution 61.34",
    )

for _a, _b, _statement, _quote in (
    (
        "attconv_advanced",
        "attconv_light",
        "advanced beats light",
        "Within ATTCONV, “advanced” beats “light” by 1.1%",
    ),
    # §4.3's results, (ii): "w/o convolution" below ATTCONV. Its 3%–4% is a margin on
    # "advanced" only (below): light's gaps are 3.0 to w/o convolution, 2.9 to APCNN.
    (
        "attconv_light",
        "w_o_convolution",
        "light beats w/o convolution",
        _SCITAIL_BASELINES,
    ),
    ("attconv_light", "apcnn", "light beats APCNN", _ATTENTIVE_POOLING),
    (
        "attconv_light",
        "bi_cnn",
        "light beats Bi-CNN",
        f"{_STATE_OF_THE_ART} [...] Bi-CNN 74.4 [...] ATTCONV-light 78.1",
    ),
    (
        "attconv_light",
        "w_o_context",
        "context helps: light beats w/o context",
        f"{_STATE_OF_THE_ART} [...] w/o Context 65.1 [...] ATTCONV-light 78.1",
    ),
    (
        "attconv_advanced",
        "bi_cnn",
        "advanced beats Bi-CNN",
        f"{_STATE_OF_THE_ART} [...] Bi-CNN 74.4 [...] ATTCONV-advanced 79.2",
    ),
    (
        "attconv_advanced",
        "w_o_context",
        "context helps: advanced beats w/o context",
        f"{_STATE_OF_THE_ART} [...] w/o Context 65.1 [...] ATTCONV-advanced 79.2",
    ),
):
    _claim("scitail", _statement, _a, _b, _quote)

_SNLI_LIGHT = "ATTCONV – light 360K 86.3"
for _a, _b, _statement, _quote in (
    (
        "attconv_advanced",
        "attconv_light",
        "advanced beats light",
        f"{_ASPECTS} [...] {_SNLI_LIGHT} [...] ATTCONV – advanced 900K 87.8",
    ),
    (
        "attconv_light",
        "w_o_convolution",
        "light beats w/o convolution",
        f"{_COMMON_BASELINES} [...] {_SNLI_LIGHT} w/o convolution 360K 84.9",
    ),
    ("attconv_light", "apcnn_dos_santos_et_al_2016", "light beats APCNN", _ATTENTIVE_POOLING),
    (
        "attconv_light",
        "bi_cnn",
        "light beats Bi-CNN",
        f"{_COMMON_BASELINES} [...] Bi-CNN 270K 80.3 [...] {_SNLI_LIGHT}",
    ),
    ("attconv_advanced", "apcnn_dos_santos_et_al_2016", "advanced beats APCNN", _SNLI_ADVANCED),
    ("attconv_advanced", "bi_cnn", "advanced beats Bi-CNN", _SNLI_ADVANCED),
    (
        "attconv_light",
        "w_o_context_i_e_hypothesis_only",
        "context helps: light beats w/o context",
        f"{_COMMON_BASELINES} [...] w/o context (i.e., hypothesis only) 270K 68.7 [...] "
        f"{_SNLI_LIGHT}",
    ),
):
    _claim("snli", _statement, _a, _b, _quote)

# Table 9's columns: (the rows' name suffix, our metric, the statement's suffix). The
# gold-evidence rows have one column: there ALL and SUB are the same.
_FEVER_COLUMNS = (
    ("", "test_label_accuracy", "retrieved evidence"),
    ("", "test_fever_score", "retrieved evidence, SUB"),
    ("_gold_evidence", "test_label_accuracy", "gold evidence"),
)
for _evidence, _metric, _where in _FEVER_COLUMNS:
    for _a, _b, _statement, _quote in _FEVER:
        _claim(
            "fever",
            f"{_statement} ({_where})",
            _a + _evidence,
            _b + _evidence,
            _quote,
            _metric,
        )

# The 3%–4% are the gaps to "advanced" (4.1, 4.0); to "light" they are 3.0 and 2.9.
_SCITAIL_GAP = 0.03
_claim(
    "scitail",
    "advanced beats w/o convolution",
    "attconv_advanced",
    "w_o_convolution",
    _SCITAIL_BASELINES,
    stated_margin=_SCITAIL_GAP,
)
_claim(
    "scitail",
    "advanced beats APCNN",
    "attconv_advanced",
    "apcnn",
    f"{_SCITAIL_BASELINES} [...] {_ATTENTIVE_POOLING}",
    stated_margin=_SCITAIL_GAP,
)
_claim(
    "snli",
    "advanced beats w/o context (hypothesis only)",
    "attconv_advanced",
    "w_o_context_i_e_hypothesis_only",
    _SNLI_ADVANCED,
)

_MAJORITY = "majority class 0 34.3"
for _a, _statement, _quote in (
    (
        "w_o_context_i_e_hypothesis_only",
        "hypothesis only beats the majority class",
        "classifying hypotheses without looking at premises, that is, “w/o context” baseline, "
        f"results in a large improvement over the “majority baseline.” [...] {_MAJORITY}",
    ),
    # The majority class is the first of the "w/o attention" baselines.
    (
        "attconv_advanced",
        "advanced beats the majority class",
        f"{_MAJORITY} [...] {_SNLI_ADVANCED}",
    ),
):
    register(
        Claim(
            paper="ATTCONV",
            statement=_statement,
            a=f"attconv/snli/{_a}",
            b="majority class",
            metric="test_accuracy",
            expected="greater",
            quote=_quote,
            floor=0.343,
        )
    )

# Rows the paper cites from other work, against the ATTCONV rows its text sets them against.
_YELP_POOLING = (
    "In addition, ATTCONV surpasses attentive pooling (ABCNN&APCNN) with a big margin (>5%) and "
    "outperforms the representative attentive-LSTM (>4%)."
)
_SELF_ATTENTIVE = (
    "Furthermore, it outperforms the two self-attentive models: CNN+internal attention (Adel and "
    "Schütze, 2017) and RNN Self-Attention (Lin et al., 2017)"
)
# The margins fit "advanced" (ABCNN +6.0, APCNN +5.4, attentive-LSTM +4.3), not "light" (+4.8
# over APCNN, +3.6 over attentive-LSTM).
for _name, _value, _quote, _margin in (
    (
        "MultichannelCNN (Kim)",
        0.6462,
        "Table 3 shows that advanced-ATTCONV surpasses its “light” counterpart, and obtains "
        "significant improvement over the state of the art. [...] MultichannelCNN, the strongest "
        "baseline system",
        None,
    ),
    ("ABCNN", 0.6136, _YELP_POOLING, 0.05),
    ("APCNN", 0.6198, _YELP_POOLING, 0.05),
    ("Attentive-LSTM", 0.6311, _YELP_POOLING, 0.04),
    ("CNN+internal attention", 0.6143, _SELF_ATTENTIVE, None),
    ("Lin et al. RNN Self-Att.", 0.6421, _SELF_ATTENTIVE, None),
):
    _cited("yelp", "advanced", _name, _value, _quote, stated_margin=_margin)
    # The offline stand-in sample measures the rows built here; the others it cannot.
    if _registered("yelp_stars_standin", _name):
        _cited("yelp_stars_standin", "advanced", _name, _value, _quote, stated_margin=_margin)

_SCITAIL_LSTMS = (
    "More complicated attention mechanisms equipped into LSTM (e.g., “attentive-LSTM” and "
    "“enhanced-LSTM”) perform even worse."
)
_cited(
    "scitail",
    "attconv_advanced",
    "ABCNN",
    0.758,
    f"{_SCITAIL_BASELINES} [...] {_ATTENTIVE_POOLING}",
    stated_margin=_SCITAIL_GAP,
)
for _a, _name, _value, _quote in (
    ("attconv_light", "ABCNN", 0.758, _ATTENTIVE_POOLING),
    ("attconv_advanced", "DGEM", 0.773, _STATE_OF_THE_ART),
    ("apcnn", "Attentive-LSTM", 0.715, _SCITAIL_LSTMS),
    ("apcnn", "Enhanced LSTM", 0.706, _SCITAIL_LSTMS),
    # "Even worse" than "w/o convolution" and attentive pooling, of the sentence before.
    ("w_o_convolution", "Attentive-LSTM", 0.715, f"{_SCITAIL_BASELINES} [...] {_SCITAIL_LSTMS}"),
    ("w_o_convolution", "Enhanced LSTM", 0.706, f"{_SCITAIL_BASELINES} [...] {_SCITAIL_LSTMS}"),
    # Worse still than the rows 3%–4% below "advanced" (§4.1's aspect "attentive convolution"
    # vs. "attentive RNN"); the quoted cells name the pair, whose gaps (7.7, 8.6) exceed the
    # 3%–4% of the sentence before.
    (
        "attconv_advanced",
        "Attentive-LSTM",
        0.715,
        f"{_SCITAIL_LSTMS} [...] Attentive-LSTM 71.5 [...] ATTCONV-advanced 79.2",
    ),
    (
        "attconv_advanced",
        "Enhanced LSTM",
        0.706,
        f"{_SCITAIL_LSTMS} [...] Enhanced LSTM 70.6 [...] ATTCONV-advanced 79.2",
    ),
):
    _cited("scitail", _a, _name, _value, _quote)

_SNLI_PARAMETERS = (
    "We also report the parameter size in SNLI as most baseline systems did. Table 7 shows "
    "that, in comparison to these baselines, our ATTCONV (light and advanced) has a more "
    "limited number of parameters, yet its performance is competitive."
)
for _a, _name, _value, _quote in (
    ("attconv_advanced", "Bi-LSTM (Bowman et al., 2015)", 0.776, _SNLI_ADVANCED),
    ("attconv_advanced", "Tree-CNN (Mou et al., 2016)", 0.821, _SNLI_ADVANCED),
    ("attconv_advanced", "NES (Munkhdalai and Yu, 2017)", 0.848, _SNLI_ADVANCED),
    ("attconv_advanced", "ABCNN (Yin et al., 2016)", 0.837, _SNLI_ADVANCED),
    ("attconv_light", "ABCNN (Yin et al., 2016)", 0.837, _ATTENTIVE_POOLING),
):
    _cited("snli", _a, _name, _value, _quote)
# "close to" a gap of 0.9 points; within one point counts as comparable here [U→S].
_cited(
    "snli",
    "attconv_advanced",
    "State-of-the-art (Peters et al., 2018)",
    0.887,
    "obtaining a performance (87.8%) that is close to the state of the art (88.7%).",
    statement="advanced is close to the state of the art",
    expected="equivalent",
    margin=0.01,
)
# "We also report the parameter size in SNLI as most baseline systems did. Table 7 shows
# that, in comparison to these baselines, ...": the systems from other work, whose papers
# report a size. Where the paper's own counts go against the sentence, the note says so.
_TABLE_7_SYSTEMS = {
    "Bi-LSTM (Bowman et al., 2015)": 220_000,
    "Tree-CNN (Mou et al., 2016)": 3_500_000,
    "NES (Munkhdalai and Yu, 2017)": 6_300_000,
    "Attentive-LSTM (Rocktäschel)": 250_000,
    "Self-Attentive (Lin et al., 2017)": 95_000_000,
    "Match-LSTM (Wang and Jiang)": 1_900_000,
    "LSTMN (Cheng et al., 2016)": 3_400_000,
    "Decomp-Att (Parikh)": 580_000,
    "Enhanced LSTM (Chen et al., 2017b)": 7_700_000,
    "ABCNN (Yin et al., 2016)": 834_000,
    "apcnn_dos_santos_et_al_2016": None,  # registered: our built model's count
    "State-of-the-art (Peters et al., 2018)": 8_000_000,
}


def _fewer_parameters(a, b, count=None):
    """Table 7's parameter sentence for ATTCONV row `a` against `b`: a system from other work
    with its printed `count`, or (no count) a registered row, measured on our built models."""
    _claim(
        "snli",
        f"{_printed('snli', a)} has fewer parameters than {b if count else _printed('snli', b)}",
        a,
        b,
        _SNLI_PARAMETERS,
        "params",
        expected="less",
        cited=((b, count),) if count else (),
    )


for _a in ("attconv_light", "attconv_advanced"):
    for _b, _count in _TABLE_7_SYSTEMS.items():
        _fewer_parameters(_a, _b, _count)

_DECOMP_ATT = (
    "ATTCONV surpasses the top competitor “Decomp-Att,” reported in Thorne et al. (2018), with "
    "big margins in dev (ALL: 62.26 vs. 52.09)"
)
_cited("fever", "advan_context_conc", "Decomp-Att", 0.5209, _DECOMP_ATT, "test_label_accuracy")
# Table 9's test rows: "(Thorne et al., 2018)" is Decomp-Att's, "ATTCONV" the rows' test target.
_cited(
    "fever",
    "advan_context_conc",
    "Decomp-Att (Thorne et al., 2018)",
    0.5091,
    f"{_DECOMP_ATT} and test (ALL: 61.03 vs. 50.91) [...] (Thorne et al., 2018) 50.91 31.87 – "
    "ATTCONV 61.03 38.77 84.61",
    "test_label_accuracy",
    statement="ATTCONV beats Decomp-Att on the test split",
    paper_key="test_label_accuracy",
)
_FEVER_LEADS = (
    "Moreover, ATTCONV surpasses attentive pooling (i.e., ABCNN & APCNN) and “attentive-LSTM” by "
    ">10% in ALL, >6% in SUB and >8% in “gold evi.”"
)
# Table 9's APCNN, ABCNN and attentive-LSTM are registered rows, their dev cells (ALL, SUB,
# gold evi.) their targets. By them the ">10%" in ALL does not hold against attentive-LSTM,
# nor the ">8%" in gold evi. against APCNN and attentive-LSTM: the claims here are the
# direction, and the note says where the quoted margin is missed.
_LEAD_MARGINS = {"ALL": 0.10, "SUB": 0.06, "gold evi.": 0.08}
for _b in ("apcnn", "abcnn", "attentive_lstm"):
    for (_evidence, _metric, _), _column in zip(_FEVER_COLUMNS, _LEAD_MARGINS):
        _claim(
            "fever",
            f"advanced, context-conc, beats {_printed('fever', _b)} ({_column})",
            "advan_context_conc" + _evidence,
            _b + _evidence,
            _FEVER_LEADS,
            _metric,
            stated_margin=_LEAD_MARGINS[_column],
        )

# §4.1's "w/o convolution" baseline against "advanced" where no sentence of the results ranks
# the pair: Table 3 (on the paper's split and the stand-in) and Table 7.
for _dataset in ("yelp", "yelp_stars_standin"):
    _claim(
        _dataset,
        "advanced beats w/o convolution",
        "advanced",
        "w_o_convolution",
        f"{_COMMON_BASELINES} [...] w/o convolution 61.34 advanced 67.36",
    )
_claim(
    "snli",
    "advanced beats w/o convolution",
    "attconv_advanced",
    "w_o_convolution",
    f"{_COMMON_BASELINES} [...] w/o convolution 360K 84.9 ATTCONV – advanced 900K 87.8",
)
