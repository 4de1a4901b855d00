"""One shared test harness for every model family.

Usage::

    from tests.models.harness import check_padding, run_model_test

    outputs = run_model_test(build_model("coin", inputs, d=8, n_h=2), batch)
    check_padding(model, batch, pads=(6, 3))  # the padding check alone

`batch` is a dict of int32 features keyed like the pipeline's (`a_ids`, `b_ids`, `a_chars`,
`b_pos`, `a_segments`...): the key's first letter names the text, right-padded with id 0.

Checks of `run_model_test`, in order:
1. build: the model holds its weights before any call, and an inference call gives finite
   outputs with one row per example;
2. padding: `pads` more padding positions (id 0) at the end of each text, on every feature of
   that text, change no output;
3. a `.keras` save / load round trip gives a model with identical outputs;
4. a training-mode call: every trainable weight gets a non-zero gradient, under the TensorFlow
   or the JAX backend (the layer harness' `trainable_gradients`).

The gradient check comes last because a training-mode call may update the model's state (the
moving statistics of a batch normalisation). The backend is fixed when Keras is imported: the
JAX run of these checks is `tests/models/test_harnesses_under_jax.py`.
"""

import os
import tempfile

import keras
import numpy as np

from tests.layers.harness import assert_every_weight_learns, projected_sum

RTOL = 1e-5
ATOL = 1e-5
TEXTS = ("a", "b")


def _numpy_outputs(outputs):
    return [np.asarray(keras.ops.convert_to_numpy(o)) for o in keras.tree.flatten(outputs)]


def padded(batch, pads):
    """`batch` with pads[0] more padding positions at the end of text a and pads[1] at the end
    of text b, on every feature of that text (axis 1)."""
    extra = dict(zip(TEXTS, pads))
    assert all(key[0] in extra and key[1] == "_" for key in batch), f"keys {sorted(batch)}"
    return {
        key: np.pad(value, [(0, 0), (0, extra[key[0]])] + [(0, 0)] * (value.ndim - 2))
        for key, value in batch.items()
    }


def _assert_padding_changes_nothing(model, batch, outputs, pads):
    longer = _numpy_outputs(model(padded(batch, pads), training=False))
    for k, (got, want) in enumerate(zip(longer, outputs)):
        np.testing.assert_allclose(
            got, want, rtol=RTOL, atol=ATOL, err_msg=f"output {k}: padding changed it"
        )


def check_padding(model, batch, pads=(4, 3)):
    """Asserts that more padding at the end of each text changes no output of `model` in
    inference mode; returns the outputs on `batch` (a flat list of NumPy arrays)."""
    outputs = _numpy_outputs(model(batch, training=False))
    _assert_padding_changes_nothing(model, batch, outputs, pads)
    return outputs


def run_model_test(model, batch, pads=(4, 3), seed=0):
    """Runs every generic check on `model` with the features `batch`; returns its inference
    outputs on `batch` (a flat list of NumPy arrays) for further model-specific assertions."""
    # 1. Build.
    assert model.built and model.weights, "the model has no weights before its first call"
    outputs = _numpy_outputs(model(batch, training=False))
    rows = len(batch[f"{TEXTS[0]}_ids"])
    for k, out in enumerate(outputs):
        assert out.shape[0] == rows, f"output {k} has {out.shape[0]} rows for {rows} examples"
        assert np.all(np.isfinite(out)), f"output {k} has non-finite values"

    # 2. Padding.
    _assert_padding_changes_nothing(model, batch, outputs, pads)

    # 3. .keras save / load.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.keras")
        model.save(path)
        restored = keras.models.load_model(path)
    for got, want in zip(_numpy_outputs(restored(batch, training=False)), outputs):
        np.testing.assert_array_equal(got, want, err_msg="the restored model differs")

    # 4. A gradient reaches every trainable weight.
    rng = np.random.default_rng(seed)
    projections = [rng.normal(size=out.shape).astype("float32") for out in outputs]
    assert_every_weight_learns(
        model,
        lambda: projected_sum(keras.tree.flatten(model(batch, training=True)), projections),
    )
    return outputs
