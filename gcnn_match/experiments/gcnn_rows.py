"""GCNN (Chen et al., Interspeech 2018): Table 2 (Quora) rows of the conv model family.

Settings are the paper's (§3.2): hidden 300, 4 context + 2 aggregation layers, Adam 4e-4,
batch 64, Quora cut-off 40; unstated choices follow MODEL_SPECS §1.5 (kernel 3, C^0 = 0,
dropout 0.1, MLP 300, global-norm clipping 10, <= 20 epochs, selection on dev accuracy).
The paper's 300-d GloVe 840B vectors are used when present in DATA_DIR/embeddings; otherwise
the run records the packaged GloVe 6B-50d stand-in.
"""
from gcnn_match.experiments.config import ExperimentConfig, OptimizerConfig
from gcnn_match.experiments.registry import register, register_time_ratios, slug

PAPER = "GCNN"
OPTIMIZER = OptimizerConfig(name="adam", learning_rate=4e-4, global_clipnorm=10.0)
QUORA = dict(paper=PAPER, table="Table 2", dataset="quora", model="compare_aggregate",
             tokenizer="whitespace", lowercase=False, max_len_a=40, max_len_b=40,
             optimizer=OPTIMIZER, batch_size=64, epochs=20,
             target_notes="test accuracy %, time s/epoch on one GTX 1080 (paper)")

# row as printed -> (encoder variant, test accuracy %, seconds per epoch)
QUORA_ROWS = {
    "CNN": ("cnn", 87.92, 660),
    "GLU": ("glu", 88.32, 692),
    "GCNN": ("gcnn", 88.66, 870),
    "GCNN - forget gate": ("gcnn_no_forget", 88.33, 690),
    "GCNN - output gate": ("gcnn_no_output", 88.35, 702),
}

for row, (variant, accuracy, seconds) in QUORA_ROWS.items():
    register(ExperimentConfig(
        name=f"gcnn/quora/{slug(row)}", row=row, model_kwargs={"variant": variant},
        targets={"test_accuracy": accuracy / 100, "seconds_per_epoch": seconds}, **QUORA))

# The speed claim (§4): GCNN is close to CNN and much faster than ESIM.
register_time_ratios("gcnn-quora", [("ESIM (our implement)", "GCNN"), ("GCNN", "CNN"),
                                    ("GCNN (char)", "GCNN")])
