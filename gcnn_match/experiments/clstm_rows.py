"""Coupled-LSTMs (Liu et al., EMNLP 2016): Table 2 (SNLI) rows, with the models of
`gcnn_match.models.clstm`.

Settings are the paper's for RTE (Table 1, §5-6.1): hidden 50 (baselines k = 100 as Table 2
prints), (1, 1) dynamic pooling, AdaGrad with initial rate 0.005 (Table 1; outside the grid
the text states, MODEL_SPECS §3.7) and Theano-like accumulator/epsilon
(`training/optimizers.py`), L2 1e-5 on every non-embedding kernel (also for the baselines
[U->S]), gradients rescaled when their global norm exceeds 10 (threshold unreported, picked
from the paper's grid {5, 10, 100}) [U->S], fine-tuned embeddings, U[-0.1, 0.1]
initialisation. Unstated [U->S]: batch 32, at most 20 epochs with selection and early
stopping on dev, no dropout, sentences cut at 50 tokens, lower-cased parse-tree tokens (the
paper's vectors are uncased GloVe). Vectors: the paper says "100d GloVe (840B)", which does
not exist; glove.6B.100d is used when DATA_DIR/embeddings holds it, else the packaged
GloVe 6B-50d (the report says which).
Not registered yet: Table 4 (Yahoo! Answers MQA; the corpus is not public, MODEL_SPECS §3.9).
"""
from gcnn_match.experiments.config import ExperimentConfig, OptimizerConfig
from gcnn_match.experiments.registry import register, slug

PAPER = "C-LSTMs"
SNLI = dict(
    paper=PAPER, table="Table 2", dataset="snli", tokenizer="whitespace", lowercase=True,
    use_given_tokens=True, max_len_a=50, max_len_b=50,
    embeddings="glove.6B.100d|glove-6b-50d-packaged", embeddings_trainable=True,
    optimizer=OptimizerConfig(name="adagrad", learning_rate=0.005, global_clipnorm=10.0),
    batch_size=32, epochs=20, early_stopping_patience=5)
NOTES = (
    "SNLI test accuracy % and |θ|_M (Table 2, parameters without word embeddings). The "
    "paper used 100-d GloVe; this row defaults to the packaged GloVe 6B-50d stand-in "
    "(e = 50) until glove.6B.100d is wired in, which changes the first-layer size too. "
    "|θ|_M leaves out biases and the output layer (MODEL_SPECS §3.8): with e = 100, "
    "gcnn_match.models.clstm.paper_parameter_count reproduces every C-LSTM count exactly, "
    "while our trainable-parameter count (Keras, with biases) is somewhat larger.")
BASELINE_NOTE = (
    " Baseline count copied by the paper from its source paper (300-d word2vec inputs); not "
    "reproduced by our 100-d model except NBOW (see tests/models/test_clstm_models.py).")

L2 = 1e-5
CLSTM = dict(units=50, pool_size=[1, 1], head="softmax", l2=L2)
# row as printed -> (model, model kwargs, test accuracy %, |θ|_M)
ROWS = {
    "NBOW": ("sentence_encoder_mlp", dict(kind="nbow", units=100, l2=L2), 75.1, 80_000),
    "single LSTM (Rocktäschel et al., 2015)": (
        "conditional_lstm", dict(units=100, l2=L2), 80.9, 111_000),
    "parallel LSTMs (Bowman et al., 2015)": (
        "sentence_encoder_mlp", dict(kind="lstm", units=100, l2=L2), 77.6, 221_000),
    "Attention LSTMs (Rocktäschel et al., 2015)": (
        "conditional_lstm", dict(attention="final", units=100, l2=L2), 82.3, 252_000),
    "Attention(w-by-w) LSTMs (Rocktäschel et al., 2015)": (
        "conditional_lstm", dict(attention="word_by_word", units=100, l2=L2), 83.5, 252_000),
    "LC-LSTMs (Single Direction)": ("clstm", dict(cell="loose", directions=1, **CLSTM), 80.5,
                                    45_000),
    "LC-LSTMs": ("clstm", dict(cell="loose", directions=4, **CLSTM), 80.9, 45_000),
    "four stacked LC-LSTMs": ("clstm", dict(cell="loose", num_layers=4, **CLSTM), 84.3,
                              135_000),
    "TC-LSTMs (Single Direction)": ("clstm", dict(cell="tight", directions=1, **CLSTM), 80.1,
                                    77_500),
    "TC-LSTMs": ("clstm", dict(cell="tight", directions=4, **CLSTM), 81.6, 77_500),
    "four stacked TC-LSTMs": ("clstm", dict(cell="tight", num_layers=4, **CLSTM), 85.1,
                              190_000),
}

for row, (model, kwargs, accuracy, params) in ROWS.items():
    register(ExperimentConfig(
        name=f"clstm/snli/{slug(row)}", row=row, model=model, model_kwargs=kwargs,
        targets={"test_accuracy": accuracy / 100, "trainable_params_without_embeddings": params},
        target_notes=NOTES + ("" if model == "clstm" else BASELINE_NOTE), **SNLI))
