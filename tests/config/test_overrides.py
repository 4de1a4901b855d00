"""--override key=value, the shorthand flags generated from one table, and run directories."""

import json
import pathlib
import subprocess
import sys

import pytest
from absl import flags

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.config.overrides import (
    SHORTHANDS,
    OverrideError,
    apply_overrides,
    default_run_dir,
    define_flags,
    overrides_from_flags,
    parse_override,
    valid_keys,
)
from gcnn_match.experiments import registry

REPO = pathlib.Path(__file__).resolve().parents[2]


def _from_command_line(*args, shorthands=None):
    """The (key, value) pairs that `args` give, through freshly defined flags."""
    flag_values = flags.FlagValues()
    define_flags(shorthands, flag_values=flag_values)
    flag_values(["prog", *args])
    return overrides_from_flags(shorthands, flag_values=flag_values)


def _apply(*texts):
    return apply_overrides(registry.get("gcnn/quora/gcnn"), [parse_override(t) for t in texts])


def test_values_are_json_or_else_text():
    assert parse_override("optimizer.learning_rate=1e-3") == ("optimizer.learning_rate", 1e-3)
    assert parse_override("jit_compile=true") == ("jit_compile", True)
    assert parse_override("max_train_examples=null") == ("max_train_examples", None)
    assert parse_override("embeddings=random") == ("embeddings", "random")
    assert parse_override('model_kwargs={"hidden": 8}') == ("model_kwargs", {"hidden": 8})
    assert parse_override("optimizer.decay=exponential:0.95:128000")[1] == "exponential:0.95:128000"
    with pytest.raises(OverrideError, match="--override takes key=value, got 'epochs'"):
        parse_override("epochs")


def test_dotted_keys_set_nested_fields_and_dict_entries():
    config = _apply("optimizer.learning_rate=1e-3", "model_kwargs.hidden=200", "epochs=3")
    assert config.optimizer.learning_rate == 1e-3 and config.optimizer.name == "adam"
    assert config.model_kwargs == {"variant": "gcnn", "hidden": 200} and config.epochs == 3
    # A dict for the optimizer sets the fields it names; one for a dict field replaces it.
    config = _apply('optimizer={"name": "sgd"}', 'model_kwargs={"variant": "cnn"}')
    assert config.optimizer.name == "sgd" and config.optimizer.learning_rate == 4e-4
    assert config.model_kwargs == {"variant": "cnn"}
    # JSON lists become the config's tuples; integers are accepted where a number is.
    config = _apply('compare=[["test_accuracy", "dev_accuracy"]]', "optimizer.learning_rate=1")
    assert config.compare == (("test_accuracy", "dev_accuracy"),)
    assert config.optimizer.learning_rate == 1.0 and type(config.optimizer.learning_rate) is float


def test_unknown_key_names_the_closest_and_lists_the_valid_keys():
    with pytest.raises(OverrideError) as error:
        _apply("epoch=3")
    message = str(error.value)
    assert message.startswith("--override: unknown config key 'epoch' (did you mean 'epochs'?)")
    assert "valid keys: name, paper," in message and "optimizer.learning_rate" in message
    assert "\n" not in message
    with pytest.raises(OverrideError, match="did you mean 'optimizer.learning_rate'"):
        _apply("learning_rate=1e-3")
    with pytest.raises(OverrideError, match="unknown config key 'optimizer.lr'"):
        _apply("optimizer.lr=1e-3")
    with pytest.raises(OverrideError, match="unknown config key 'model_kwargs.a.b'"):
        _apply("model_kwargs.a.b=1")
    assert "model_kwargs.<name>" in valid_keys()


@pytest.mark.parametrize(
    "text, message",
    [
        ("epochs=abc", "epochs takes an integer, got 'abc'"),
        ("epochs=2.5", "epochs takes an integer, got 2.5"),
        ("batch_size=true", "batch_size takes an integer, got True"),
        ("holdout_fraction=high", "holdout_fraction takes a number, got 'high'"),
        ("jit_compile=yes", "jit_compile takes true or false, got 'yes'"),
        ("train_split=7", "train_split takes a string, got 7"),
        ("model_kwargs=3", "model_kwargs takes a JSON object, got 3"),
        ("optimizer=3", "optimizer takes a JSON object, got 3"),
        ('compare=["a"]', "compare takes a JSON list"),
        ("scale=huge", "scale must be one of"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(text, message):
    with pytest.raises(OverrideError, match=message):
        _apply(text)


def test_every_shorthand_is_a_valid_key_and_flag_of_its_field_type():
    changes = _from_command_line(
        "--epochs=6",
        "--learning_rate=1e-3",
        "--jit_compile",
        "--holdout_fraction=0.2",
        "--scale=smoke",
        "--model_kwargs=hidden=64,variant=glu",
    )
    assert changes == [
        ("scale", "smoke"),
        ("epochs", 6),
        ("optimizer.learning_rate", 1e-3),
        ("holdout_fraction", 0.2),
        ("jit_compile", True),
        ("model_kwargs.hidden", 64),
        ("model_kwargs.variant", "glu"),
    ]
    for shorthand in SHORTHANDS:
        assert shorthand.key.split(".")[0] in valid_keys()
    with pytest.raises(flags.IllegalFlagValueError):
        _from_command_line("--epochs=many")
    with pytest.raises(OverrideError, match="--model_kwargs takes key=value, got 'hidden'"):
        _from_command_line("--model_kwargs=hidden")


def test_override_wins_over_its_shorthand_and_the_later_override_wins():
    changes = _from_command_line(
        "--override=epochs=9",
        "--epochs=6",
        "--override=model_kwargs.hidden=8",
        "--override=epochs=7",
    )
    config = apply_overrides(registry.get("gcnn/quora/gcnn"), changes)
    assert config.epochs == 7 and config.model_kwargs["hidden"] == 8
    # A script can take some shorthands only (reproduce.py: --epochs; its --scale is its own).
    assert _from_command_line("--epochs=3", shorthands=("epochs",)) == [("epochs", 3)]


def test_overrides_and_run_directory():
    registered = registry.get("gcnn/quora/gcnn")
    config = apply_overrides(
        registered,
        _from_command_line("--scale=smoke", "--seed=3", "--learning_rate=1e-3")
        + [("model_kwargs.hidden", 64)],
    )
    assert config.optimizer.learning_rate == 1e-3 and config.epochs == registered.epochs
    assert config.model_kwargs == {"variant": "gcnn", "hidden": 64}
    plain = registered.replace(scale="smoke", seed=3)
    assert (
        default_run_dir("runs", registered, plain).as_posix()
        == "runs/gcnn/quora/gcnn/smoke-seed3-e300"
    )
    assert default_run_dir("runs", registered, config).name.startswith("smoke-seed3-e300-")
    assert (
        default_run_dir("runs", registered, plain.replace(epochs=6)).name
        == "smoke-seed3-e300-epochs6"
    )
    # The shorthand and its --override spelling resolve to the same config, so the same run.
    spelled = apply_overrides(registered, _from_command_line("--override=epochs=6"))
    assert spelled == apply_overrides(registered, _from_command_line("--epochs=6"))
    assert default_run_dir("runs", registered, spelled).name == "full-seed1-e300-epochs6"


def test_embedding_width_is_a_config_field_a_shorthand_and_part_of_the_run_directory():
    registered = registry.get("gcnn/quora/gcnn")
    assert registered.embedding_width == 300  # the paper's, over the 50-d stand-in
    assert _from_command_line("--embedding_width=100") == [("embedding_width", 100)]
    narrow = apply_overrides(registered, _from_command_line("--embedding_width=100"))
    own = apply_overrides(registered, _from_command_line("--override=embedding_width=null"))
    assert (narrow.embedding_width, own.embedding_width) == (100, None)
    # The width is always in the name, so runs at the vectors' own width (every run before the
    # rows registered their paper's width) keep theirs and are never mistaken for paper width.
    assert default_run_dir("runs", registered, narrow).name == "full-seed1-e100"
    assert default_run_dir("runs", registered, own).name == "full-seed1"
    assert default_run_dir("runs", registered, own.replace(epochs=6)).name == "full-seed1-epochs6"
    # It is recorded in config.json; a config written before the field existed reads as None.
    assert ExperimentConfig.from_dict(json.loads(narrow.to_json())) == narrow
    old = {k: v for k, v in registered.to_dict().items() if k != "embedding_width"}
    assert ExperimentConfig.from_dict(old).embedding_width is None
    with pytest.raises(OverrideError, match="embedding_width must be positive"):
        _apply("embedding_width=0")


@pytest.mark.slow
def test_train_py_reports_a_bad_override_in_one_line_without_a_traceback():
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "experiments" / "train.py"),
            "--experiment=gcnn/quora/gcnn",
            "--override=epoch=3",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(
        "error: --override: unknown config key 'epoch' (did you mean 'epochs'?)"
    )
    assert len(result.stderr.strip().splitlines()) == 1
