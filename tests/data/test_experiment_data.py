"""From a config to the splits a run reads: the scale rules and the example limits."""

import pytest

from gcnn_match.data.example import Example
from gcnn_match.data.experiment_data import apply_scale, check_epochs_for_scale, first_whole_groups
from gcnn_match.experiments import registry


def test_scales_resolve_splits():
    config = registry.get("gcnn/quora/gcnn")
    full = apply_scale(config)
    assert (full.train_split, full.dev_split, full.test_split) == ("train", "dev", "test")
    low = apply_scale(config.replace(scale="low-resource"))
    assert (low.train_split, low.dev_split, low.test_split) == ("dev", "holdout", "test")
    smoke = apply_scale(config.replace(scale="smoke"))
    assert smoke.epochs == 2 and smoke.max_train_examples == 1000
    assert smoke.max_eval_examples == 400
    with pytest.raises(ValueError, match="scale"):
        config.replace(scale="huge")


def test_multinli_never_selects_on_the_split_it_tests_or_scores_what_it_trains_on():
    # Test labels are Kaggle-only: dev-mismatched is the test split, selection is held out.
    config = registry.get("gcnn/multinli/gcnn")
    full = apply_scale(config)
    splits = (full.train_split, full.dev_split, full.test_split)
    assert splits == ("train", "holdout", "dev_mismatched")
    assert full.extra_eval_splits == ("dev_matched", "test_matched", "test_mismatched")
    # Low-resource trains on dev-matched (train's genres) and tests across genres.
    low = apply_scale(config.replace(scale="low-resource"))
    splits = (low.train_split, low.dev_split, low.test_split)
    assert splits == ("dev_matched", "holdout", "dev_mismatched")
    assert low.extra_eval_splits == ("test_matched", "test_mismatched")
    # A selection split is not scored as an extra split either.
    chosen = apply_scale(config.replace(dev_split="dev_matched"))
    assert chosen.extra_eval_splits == ("test_matched", "test_mismatched")
    # A split in two roles is refused, naming both flags.
    for changes, flags in (
        ({"dev_split": "dev_mismatched"}, "--dev_split=dev_mismatched and --test_split="),
        ({"test_split": "train"}, "--train_split=train and --test_split=train"),
        ({"scale": "low-resource", "dev_split": "dev_matched"}, "--train_split=dev_matched and"),
    ):
        with pytest.raises(ValueError, match=f"^{flags}"):
            apply_scale(config.replace(**changes))
    # One split for all three roles is a pipeline check on one file.
    same = dict(train_split="dev_matched", dev_split="dev_matched", test_split="dev_matched")
    assert apply_scale(config.replace(**same)).extra_eval_splits == (
        "test_matched",
        "test_mismatched",
    )
    # The SNLI rows of the same configuration keep SNLI's splits.
    snli = apply_scale(registry.get("gcnn/snli/gcnn"))
    assert (snli.dev_split, snli.test_split, snli.extra_eval_splits) == ("dev", "test", ())


def test_code_faithful_attconv_pads_to_the_cut_off_and_evaluates_in_training_batches():
    config = registry.get("attconv/snli/attconv_light")
    assert apply_scale(config).padding == "bucket"
    faithful = apply_scale(
        config.replace(model_kwargs={**config.model_kwargs, "code_faithful": True})
    )
    assert (faithful.padding, faithful.eval_batch_size) == ("fixed", 50)
    with pytest.raises(ValueError, match="padding"):
        config.replace(padding="left")


def test_an_epoch_cap_at_the_smoke_scale_is_refused_not_ignored():

    with pytest.raises(ValueError, match="2 epochs by definition"):
        check_epochs_for_scale("smoke", 3)
    check_epochs_for_scale("smoke", None)
    check_epochs_for_scale("low-resource", 3)


def test_limits_keep_whole_questions():
    examples = [Example("q", str(i), 0, str(i), group=g) for i, g in enumerate("aabbbcd")]
    assert first_whole_groups(examples, 4) == [0, 1]
    assert first_whole_groups(examples, 5) == [0, 1, 2, 3, 4]
    assert first_whole_groups(examples, 1) == [0, 1]  # never empty: the first question whole
