"""The registered ATTCONV rows: names, paper targets and the paper's common set-up."""

import pytest

from gcnn_match.experiments import registry

# The models of the other papers' baselines the tables compare against.
BASELINE_MODELS = (
    "lstm_encoders",
    "conditional_lstm",
    "esim",
    "abcnn",
    "decomposable_attention",
    "multichannel_cnn",
    "cnn_internal_attention",
)


def test_scitail_and_snli_rows_are_registered_with_paper_settings():
    # The paper's rows; the "ATTCONV-light (authors' ...)" rows have their scripts' settings.
    def paper_rows(dataset):
        rows = registry.select(paper="ATTCONV", dataset=dataset)
        return [c for c in rows if "(authors'" not in c.row]

    scitail, snli = paper_rows("scitail"), paper_rows("snli")
    assert len(scitail) == 11 and len(snli) == 11
    light = registry.get("attconv/snli/attconv_light")
    assert light.targets == {"test_accuracy": 0.863, "params": 360_000}
    assert registry.get("attconv/scitail/attconv_advanced").targets == {"test_accuracy": 0.792}
    for config in scitail + snli:
        assert config.name.startswith(f"attconv/{config.dataset}/")
        assert config.optimizer.name == "adagrad" and config.optimizer.learning_rate == 0.01
        assert config.batch_size == 50 and config.embeddings_trainable
        assert config.embeddings == "word2vec-googlenews|glove-6b-50d-packaged"
        assert "word2vec" in config.target_notes
        assert config.model in ("attconv", "bicnn", "apcnn") + BASELINE_MODELS
    assert {c.max_len_a for c in scitail} == {50} and {c.max_len_a for c in snli} == {70}
    assert "attconv-scitail" in registry.tables() and "attconv-snli" in registry.tables()


def test_other_papers_baselines_have_their_cells_and_their_tables_settings():
    """Table 5, 7 and 3 cells of the baselines built by the project's models, each row with the
    settings of its table's ATTCONV rows (docs/attconv.md#baselines-of-other-papers)."""
    expected = {
        "scitail": {
            "bi_lstm": ("lstm_encoders", 0.695),
            "enhanced_lstm": ("esim", 0.706),
            "attentive_lstm": ("conditional_lstm", 0.715),
            "abcnn": ("abcnn", 0.758),
            "decomp_att": ("decomposable_attention", 0.723),
        },
        "snli": {
            "bi_lstm_bowman_et_al_2015": ("lstm_encoders", 0.776, 220_000),
            "attentive_lstm_rocktaschel": ("conditional_lstm", 0.835, 250_000),
            "enhanced_lstm_chen_et_al_2017b": ("esim", 0.886, 7_700_000),
            "abcnn_yin_et_al_2016": ("abcnn", 0.837, 834_000),
            "decomp_att_parikh": ("decomposable_attention", 0.868, 580_000),
        },
        "yelp": {
            "multichannelcnn_kim": ("multichannel_cnn", 0.6462),
            "cnn_internal_attention": ("cnn_internal_attention", 0.6143),
            "abcnn": ("abcnn", 0.6136),
            "apcnn": ("apcnn", 0.6198),
            "attentive_lstm": ("conditional_lstm", 0.6311),
        },
    }
    light = {"scitail": "attconv_light", "snli": "attconv_light", "yelp": "light"}
    for dataset, rows in expected.items():
        reference = registry.get(f"attconv/{dataset}/{light[dataset]}")
        for name, (model, accuracy, *params) in rows.items():
            config = registry.get(f"attconv/{dataset}/{name}")
            assert config.model == model, name
            assert config.targets["test_accuracy"] == pytest.approx(accuracy), name
            assert config.targets.get("params") == (params[0] if params else None), name
            assert "intra_context" not in config.model_kwargs, name
            # The table's notes, then what the row's model and cell are.
            assert config.target_notes.startswith(reference.target_notes + " "), name
            unchanged = dict(
                name=reference.name,
                row=reference.row,
                model=reference.model,
                model_kwargs=reference.model_kwargs,
                targets=reference.targets,
                target_notes=reference.target_notes,
            )
            assert config.replace(**unchanged) == reference, name
    # Rocktäschel et al.'s word-by-word attention with the vectors projected to k = 100.
    attentive = registry.get("attconv/snli/attentive_lstm_rocktaschel").model_kwargs
    assert attentive == {"attention": "word_by_word", "units": 100, "project_inputs": True}


def test_yelp_rows_are_table_3_intra_context():
    rows = [c for c in registry.select(paper="ATTCONV", dataset="yelp") if c.model == "attconv"]
    assert [c.row for c in rows] == ["light", "w/o convolution", "advanced"]
    assert [c.targets["test_accuracy"] for c in rows] == pytest.approx([0.6675, 0.6134, 0.6736])
    assert [c.model_kwargs["variant"] for c in rows] == ["light", "no_conv", "advanced"]
    for config in rows:
        assert config.model_kwargs["intra_context"] and config.table == "Table 3"
        assert config.lowercase and config.max_len_b == 100


def test_fever_rows_are_table_9_in_both_evidence_settings():
    rows = registry.select(paper="ATTCONV", dataset="fever")
    retrieved = [c for c in rows if c.split_variant == "retrieved"]
    gold = [c for c in rows if c.split_variant == "gold"]
    assert len(retrieved) == len(gold) == 10 and len(rows) == 20
    conc = registry.get("attconv/fever/light_context_conc")
    assert conc.targets == pytest.approx({"dev_label_accuracy": 0.5931, "dev_fever_score": 0.3775})
    assert conc.model_kwargs == {"variant": "light"}  # one concatenated context
    wise = registry.get("attconv/fever/light_context_wise_w_o_conv_gold_evidence")
    assert wise.targets == pytest.approx({"dev_gold_accuracy": 0.7318})
    assert wise.model_kwargs == {"variant": "no_conv", "context_wise": True, "max_contexts": 10}
    best = registry.get("attconv/fever/advan_context_conc")
    assert best.targets["test_label_accuracy"] == pytest.approx(0.6103)
    assert best.targets["test_fever_score"] == pytest.approx(0.3877)
    # The authors' runs of their other tables' models, on the concatenated evidence.
    for name, model, dev_all, dev_gold in (
        ("bi_cnn", "bicnn", 0.4782, 0.7502),
        ("apcnn", "apcnn", 0.5075, 0.7891),
        ("abcnn", "abcnn", 0.5139, 0.7713),
        ("attentive_lstm", "conditional_lstm", 0.5247, 0.7844),
    ):
        config, gold_config = (
            registry.get(f"attconv/fever/{name}{s}") for s in ("", "_gold_evidence")
        )
        assert config.model == gold_config.model == model, name
        assert config.model_kwargs == registry.get(f"attconv/scitail/{name}").model_kwargs, name
        assert config.targets["dev_label_accuracy"] == pytest.approx(dev_all), name
        assert gold_config.targets == pytest.approx({"dev_gold_accuracy": dev_gold}), name
        assert "context_wise" not in config.model_kwargs, name
    assert {registry.table_id(c) for c in retrieved} == {"attconv-fever"}
    assert {registry.table_id(c) for c in gold} == {"attconv-fever-gold"}


def test_fever_rows_read_what_the_registered_contexts_hold():
    from gcnn_match.data.registry import get_dataset

    splits = get_dataset("fever").splits
    for config in registry.select(paper="ATTCONV", dataset="fever"):
        [spec] = splits[f"paper_dev.{config.split_variant}"]
        sentences, tokens = spec.options["max_sentences"], spec.options["sentence_len"]
        # Every token the reader keeps fits, and context-wise reads every sentence.
        assert config.max_len_a == sentences * tokens and config.use_given_tokens
        if config.model_kwargs.get("context_wise"):
            assert config.model_kwargs["max_contexts"] == sentences


def test_the_authors_easy_version_has_the_papers_360k_light_weights():
    """The SNLI easy-version script (width 3, no gate, no batch norm, no hidden layer; AdaGrad
    0.02, batch 70, length 40) counts Table 7's 360K of the light row by its convention."""
    from gcnn_match.experiments import param_counts

    easy = registry.get("attconv/snli/attconv_light_authors_easy_version")
    assert (easy.optimizer.name, easy.optimizer.learning_rate) == ("adagrad", 0.02)
    assert (easy.batch_size, easy.max_len_a, easy.max_len_b) == (70, 40, 40)
    assert easy.model == "attconv" and easy.model_kwargs["variant"] == "light"
    assert easy.model_kwargs["classifier"] == "code" and easy.model_kwargs["code_faithful"]
    paper = registry.get("attconv/snli/attconv_light").targets["params"]
    ours = param_counts.row_count(easy)
    assert ours == 4 * 300 * 300 and param_counts.matches(ours, paper)
    # The light scripts' model, the other released configuration, is four times as large.
    code = registry.get("attconv/snli/attconv_light_authors_code")
    assert not param_counts.matches(param_counts.row_count(code), paper)
