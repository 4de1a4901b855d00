"""One shared test harness for every custom layer.

Usage::

    from harness import Mask, Seq, run_layer_test

    run_layer_test(
        lambda: GLU(units=4),
        args=[Seq(x)],                     # positional call arguments
        kwargs={"mask": Mask(mask)},       # keyword call arguments
        output_axes=[("x",)],              # per flattened output: group of each axis >= 1
    )

Leaves of `args` / `kwargs` are `Seq` (a (B, L, ...) tensor whose axis 1 belongs to a
padding group), `Mask` (the float (B, L) mask of a group) or plain NumPy arrays (no
sequence axis; left untouched by the padding check). Groups are free names ("x", "a",
"b"...): inputs of one group share their length and mask.

`output_axes` lists, for each output in `keras.tree.flatten` order, the group of each of its
sequence axes starting at axis 1: `("a",)` for (B, L_a, d), `("a", "b")` for attention
weights (B, L_a, L_b), `()` for a pooled (B, d).

Checks, in order:
1. eager call builds the layer and creates all its weights;
2. symbolic call (keras.Input with None sequence lengths) gives the eager shapes, and a
   functional model sharing the eager weights gives the eager outputs;
3. `compute_output_shape` (if the layer defines it) gives the eager shapes;
4. one training step: every trainable weight gets a non-zero gradient (`trainable_gradients`,
   under the TensorFlow or the JAX backend);
5. `get_config` -> JSON -> `from_config` gives the same config and, with the same weights,
   the same outputs;
6. a `.keras` save / load round trip of the functional model gives identical outputs;
7. padding invariance: `pad` positions of random garbage are appended to every group (with
   mask 0) and the garbage under the existing padding is redrawn; outputs at real positions
   must not change, and outputs at padded positions must be 0 when `zero_at_padding`.

The NumPy re-computations of the layer equations that the tests compare against live in
tests/references.py. The backend is fixed when Keras is imported, so a test of the JAX backend
runs tests in a child process (`run_tests_under_jax`).
"""

import dataclasses
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile

import keras
import numpy as np

from tests.conftest import subprocess_env

ATOL = 1e-5
RTOL = 1e-5


@dataclasses.dataclass(frozen=True)
class Seq:
    """A (B, L, ...) input whose axis 1 is a sequence axis of padding group `group`."""

    value: np.ndarray
    group: str = "x"


@dataclasses.dataclass(frozen=True)
class Mask:
    """The float (B, L) mask (1 real, 0 padding) of padding group `group`."""

    value: np.ndarray
    group: str = "x"


# ---------------------------------------------------------------------------------------
# Small structure helpers (lists, tuples and dicts of leaves).


def _map(fn, structure):
    if isinstance(structure, dict):
        return {k: _map(fn, v) for k, v in structure.items()}
    if isinstance(structure, (list, tuple)):
        return type(structure)(_map(fn, v) for v in structure)
    return fn(structure)


def _leaves(structure):
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in _leaves(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [leaf for v in structure for leaf in _leaves(v)]
    return [structure]


def _value(leaf):
    return leaf.value if isinstance(leaf, (Seq, Mask)) else leaf


def _flat_outputs(outputs):
    return [np.asarray(keras.ops.convert_to_numpy(o)) for o in keras.tree.flatten(outputs)]


def _shape_list(shape_structure):
    """A (possibly nested) compute_output_shape result as a flat list of shape tuples."""
    if isinstance(shape_structure, (list, tuple)) and all(
        s is None or isinstance(s, (int, np.integer)) for s in shape_structure
    ):
        return [tuple(shape_structure)]
    if isinstance(shape_structure, dict):
        return [s for k in sorted(shape_structure) for s in _shape_list(shape_structure[k])]
    return [s for item in shape_structure for s in _shape_list(item)]


def _accepts(layer, name):
    return name in inspect.signature(layer.call).parameters


def _call(layer, args, kwargs, **extra):
    return layer(*args, **kwargs, **extra)


def random_inputs(rng, batch, length, dim, min_length=1):
    """Random features (B, L, dim) and a right-padded float mask with lengths in [min, L]."""
    x = rng.normal(size=(batch, length, dim)).astype("float32")
    lengths = rng.integers(min_length, length + 1, size=batch)
    lengths[0] = length  # one full row, no padding
    mask = (np.arange(length)[None, :] < lengths[:, None]).astype("float32")
    return x, mask


# ---------------------------------------------------------------------------------------
# Gradients under either backend.


def trainable_gradients(layer, loss_fn):
    """The gradient of the scalar `loss_fn()`, which calls `layer`, with respect to each of
    `layer.trainable_weights`, as NumPy arrays (None where TensorFlow finds no path).

    TensorFlow records the call on a tape. JAX differentiates a function of the weights'
    values: the call runs in a `keras.StatelessScope` that hands the layer those values in
    place of its variables.
    """
    weights = layer.trainable_weights
    backend = keras.backend.backend()
    if backend == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            loss = loss_fn()
        grads = tape.gradient(loss, [w.value for w in weights])
        # An embedding's gradient is IndexedSlices; as a dense array every row is visible.
        return [None if g is None else np.asarray(tf.convert_to_tensor(g)) for g in grads]
    if backend == "jax":
        import jax

        def loss_of(values):
            with keras.StatelessScope(state_mapping=list(zip(weights, values))):
                return loss_fn()

        return [np.asarray(g) for g in jax.grad(loss_of)([w.value for w in weights])]
    raise ValueError(f"no gradient helper for the {backend!r} backend")


def projected_sum(outputs, projections):
    """sum_k <outputs[k], projections[k]>: a scalar that every output element reaches."""
    return sum(
        keras.ops.sum(keras.ops.cast(o, "float32") * r) for o, r in zip(outputs, projections)
    )


def assert_every_weight_learns(layer, loss_fn):
    """Every trainable weight of `layer` gets a gradient from `loss_fn()` that is not all 0."""
    for w, g in zip(layer.trainable_weights, trainable_gradients(layer, loss_fn)):
        assert g is not None, f"no gradient reaches {w.path}"
        assert np.any(g != 0), f"all-zero gradient for {w.path}"


def run_tests_under_jax(*pytest_args, timeout=600):
    """Runs pytest on `pytest_args` in a child process whose Keras backend is JAX; fails
    unless every selected test passes (none skipped), and returns how many passed."""
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args],
        capture_output=True,
        text=True,
        env=subprocess_env(KERAS_BACKEND="jax"),
        timeout=timeout,
        check=False,
    )
    summary = process.stdout.strip().splitlines()[-1] if process.stdout.strip() else ""
    assert process.returncode == 0, (process.stdout + process.stderr)[-4000:]
    assert "skipped" not in summary, summary
    return int(re.search(r"(\d+) passed", summary).group(1))


# ---------------------------------------------------------------------------------------
# The harness.


def run_layer_test(
    layer_factory,
    args,
    kwargs=None,
    output_axes=None,
    zero_at_padding=True,
    pad=3,
    check_padding=True,
    seed=0,
):
    """Runs every generic check on the layer built by `layer_factory()`.

    Returns a dict with the eager `layer` and its flat list of `outputs` (NumPy), for
    further layer-specific assertions.
    """
    kwargs = dict(kwargs or {})
    rng = np.random.default_rng(seed)
    np_args = _map(_value, list(args))
    np_kwargs = _map(_value, kwargs)

    # 1. Eager call.
    layer = layer_factory()
    eager = _flat_outputs(_call(layer, np_args, np_kwargs))
    assert layer.built, "layer is not built after its first call"
    if output_axes is None:
        output_axes = [("x",)] * len(eager)
    assert len(output_axes) == len(eager), (
        f"output_axes lists {len(output_axes)} outputs, the layer returns {len(eager)}"
    )
    for out in eager:
        assert np.all(np.isfinite(out)), "non-finite values in the eager outputs"

    # 2. Symbolic call and a functional model that shares the eager weights.
    def symbolic(leaf):
        value = np.asarray(_value(leaf))
        shape = list(value.shape[1:])
        if isinstance(leaf, (Seq, Mask)):
            shape[0] = None
        return keras.Input(shape=tuple(shape), dtype=str(value.dtype))

    sym_args = _map(symbolic, list(args))
    sym_kwargs = _map(symbolic, kwargs)
    model_layer = layer_factory()
    sym_out = keras.tree.flatten(_call(model_layer, sym_args, sym_kwargs))
    for sym, out, axes in zip(sym_out, eager, output_axes):
        expected = (None,) + tuple(
            None if i < len(axes) else d for i, d in enumerate(out.shape[1:])
        )
        assert tuple(sym.shape) == expected, f"symbolic shape {sym.shape} != {expected}"
    model_layer.set_weights(layer.get_weights())
    model = keras.Model(_leaves(sym_args) + _leaves(sym_kwargs), sym_out)
    flat_inputs = _leaves(np_args) + _leaves(np_kwargs)
    model_out = _flat_outputs(model(flat_inputs))
    for got, want in zip(model_out, eager):
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)

    # 3. compute_output_shape, if the layer defines it.
    if type(layer).compute_output_shape is not keras.layers.Layer.compute_output_shape:
        first_shape = _map(lambda v: tuple(np.shape(v)), np_args[0])
        shapes = _shape_list(layer.compute_output_shape(first_shape))
        assert shapes == [o.shape for o in eager], f"compute_output_shape {shapes}"

    # 4. One training step: every trainable weight receives a gradient.
    extra = {"training": True} if _accepts(layer, "training") else {}
    projections = [rng.normal(size=o.shape).astype("float32") for o in eager]

    def loss():
        outs = keras.tree.flatten(_call(layer, np_args, np_kwargs, **extra))
        return projected_sum(outs, projections)

    assert_every_weight_learns(layer, loss)

    # 5. get_config -> JSON -> from_config.
    config = layer.get_config()
    config = json.loads(json.dumps(config))
    clone = type(layer).from_config(config)
    assert clone.get_config() == layer.get_config(), "config changed in the round trip"
    _call(clone, np_args, np_kwargs)
    clone.set_weights(layer.get_weights())
    for got, want in zip(_flat_outputs(_call(clone, np_args, np_kwargs)), eager):
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)

    # 6. .keras save / load of the functional model.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.keras")
        model.save(path)
        loaded = keras.saving.load_model(path)
    for got, want in zip(_flat_outputs(loaded(flat_inputs)), model_out):
        np.testing.assert_array_equal(got, want)

    # 7. Padding invariance.
    if check_padding:
        _check_padding(layer, args, kwargs, eager, output_axes, zero_at_padding, pad, rng)
    return {"layer": layer, "outputs": eager}


def _check_padding(layer, args, kwargs, eager, output_axes, zero_at_padding, pad, rng):
    masks = {
        leaf.group: np.asarray(leaf.value)
        for leaf in _leaves([args, kwargs])
        if isinstance(leaf, Mask)
    }
    groups = {leaf.group for leaf in _leaves([args, kwargs]) if isinstance(leaf, Seq)}
    missing = groups - set(masks)
    assert not missing, f"padding check needs a Mask for groups {sorted(missing)}"
    padded_masks = {g: np.pad(m, ((0, 0), (0, pad))) for g, m in masks.items()}

    def extend(leaf):
        if isinstance(leaf, Mask):
            return padded_masks[leaf.group]
        if not isinstance(leaf, Seq):
            return leaf
        value = np.asarray(leaf.value)
        garbage = rng.normal(
            scale=10.0, size=(value.shape[0], value.shape[1] + pad) + value.shape[2:]
        ).astype(value.dtype)
        real = padded_masks[leaf.group].reshape(
            padded_masks[leaf.group].shape + (1,) * (value.ndim - 2)
        )
        kept = np.pad(value, [(0, 0), (0, pad)] + [(0, 0)] * (value.ndim - 2))
        return np.where(real > 0, kept, garbage)

    new = _flat_outputs(_call(layer, _map(extend, list(args)), _map(extend, kwargs)))

    def real_positions(out_ndim, axes, mask_of):
        real = None
        for i, group in enumerate(axes):
            m = mask_of[group]
            shape = [m.shape[0]] + [1] * (out_ndim - 1)
            shape[i + 1] = m.shape[1]
            m = m.reshape(shape)
            real = m if real is None else real * m
        return np.ones([1] * out_ndim, "float32") if real is None else real

    for k, (old, now, axes) in enumerate(zip(eager, new, output_axes)):
        region = (slice(None),) + tuple(slice(0, old.shape[i + 1]) for i in range(len(axes)))
        real_old = real_positions(old.ndim, axes, masks)
        real_new = real_positions(now.ndim, axes, padded_masks)
        np.testing.assert_allclose(
            now[region] * real_old,
            old * real_old,
            rtol=RTOL,
            atol=ATOL,
            err_msg=f"output {k}: padding changed the outputs at real positions",
        )
        if zero_at_padding and axes:
            assert np.all(old * (1.0 - real_old) == 0), f"output {k} is not 0 at padding"
            assert np.all(now * (1.0 - real_new) == 0), f"output {k} is not 0 at padding"
