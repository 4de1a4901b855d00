"""Stacked four-directional coupled LSTMs over the n x m grid of a sentence pair (C-LSTMs)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import fresh_initializer, paper_uniform
from gcnn_match.layers.masking import ExplicitMaskLayer, unpack_pair_mask
from gcnn_match.layers.scan import carry_scan, flat_matmul

_CELLS = ("tight", "loose")
_WEIGHTS = ("input_kernel", "recurrent_kernel", "bias")  # of each block and weight set
# direction -> (reverse sentence X, reverse sentence Y); the scan of direction d starts at
# the corner (1, 1), (1, m), (n, m), (n, 1) of the paper's §4.2.1 for d = 1, 2, 3, 4.
_REVERSALS = {1: (False, False), 2: (False, True), 3: (True, True), 4: (True, False)}
# TC's gates [c~; o; i; f1; f2] with the forget gates swapped: the transposed grid's order.
_TC_SWAP = (0, 1, 2, 4, 3)


def reverse_real(x, lengths, axis):
    """Reverses the first `lengths[b]` entries of `x` along `axis` (1 or 2); padding stays.

    The length-aware reverse that turns the direction-1 scan into the other three: with
    right padding, the padded cells remain at the end of each axis in every direction.
    `x` is (B, L1, ...) for axis 1 or (B, L1, L2, ...) for axis 2; `lengths` is int (B,).
    """
    shape = ops.shape(x)
    size = shape[axis]
    positions = ops.arange(size, dtype="int32")[None, :]
    lengths = ops.cast(lengths, "int32")[:, None]
    source = ops.where(positions < lengths, lengths - 1 - positions, positions)  # (B, L)
    batch = shape[0]
    rows = shape[1] if axis == 2 else 1
    if axis == 2:
        source = source[:, None, :] + (ops.arange(rows, dtype="int32") * size)[None, :, None]
    offsets = ops.arange(batch, dtype="int32") * (rows * size)
    flat_index = ops.reshape(source + ops.reshape(offsets, (-1,) + (1,) * axis), (-1,))
    flat = ops.reshape(x, (-1,) + tuple(shape[axis + 1 :]))
    return ops.reshape(ops.take(flat, flat_index, axis=0), shape)


def _orient(t, direction, len_x, len_y, x_axis, y_axis):
    """`t` as direction `direction` sees it: X and/or Y reversed on their real tokens.

    `x_axis` / `y_axis` name the axes of `t` that run over X / Y (None: not present). The
    reversal is its own inverse, so the same call maps a scanned grid back.
    """
    reverse_x, reverse_y = _REVERSALS[direction]
    if reverse_x and x_axis is not None:
        t = reverse_real(t, len_x, x_axis)
    if reverse_y and y_axis is not None:
        t = reverse_real(t, len_y, y_axis)
    return t


def _matmul(x, kernel):
    """x (B', ..., I) @ kernel (*lead, I, G). lead = (): one (I, G) for all of x. Otherwise x
    splits into prod(lead) consecutive chunks, one per (I, G): the LC streams (S, B', ...,
    I) with kernels (S, I, G), the directions, whose copies fill B' in D chunks (see
    `CoupledLSTM.call`), with (D, I, G), or both with (S, D, I, G)."""
    lead = tuple(kernel.shape[:-2])
    if not lead:
        return flat_matmul(x, kernel)
    chunks = ops.reshape(x, lead + (-1, ops.shape(x)[-1]))
    return ops.reshape(ops.matmul(chunks, kernel), ops.shape(x)[:-1] + (kernel.shape[-1],))


def _add_bias(pre, bias):
    """pre (B', ..., G) + bias (*lead, G), chunked as in `_matmul`."""
    lead = tuple(bias.shape[:-1])
    chunks = ops.reshape(pre, lead + (-1, ops.shape(pre)[-1]))
    return ops.reshape(chunks + bias[..., None, :], ops.shape(pre))


def _blocks(t, order, axis=-1):
    """`t` cut into len(order) equal blocks along `axis`, put back together in `order`."""
    parts = ops.split(t, len(order), axis=axis)
    return ops.concatenate([parts[i] for i in order], axis=axis)


def _trade(pair, by_rows):
    """The two tensors of `pair` as they are where `by_rows`, else swapped."""
    first, second = pair
    return [ops.where(by_rows, first, second), ops.where(by_rows, second, first)]


def _back(t):
    """`t` (..., slots, k) with slot a holding slot a - 1: the held axis' predecessors. Slot 0
    receives the last slot, which lies off the grid and so is always zero: the boundary."""
    return ops.roll(t, 1, axis=-2)


def _gates(pre, units):
    """pre (S, ..., G * units) -> G tensors (S, ..., units). One reshape and transpose, which
    cost less than slicing the gates off the last axis."""
    gates = pre.shape[-1] // units
    split = ops.reshape(pre, ops.shape(pre)[:-1] + (gates, units))
    rank = len(split.shape)
    return ops.unstack(ops.transpose(split, (rank - 2,) + tuple(range(rank - 2)) + (rank - 1,)))


@keras.saving.register_keras_serializable(package="gcnn_match")
class CoupledLSTM(ExplicitMaskLayer):
    """Stacked blocks of four-directional coupled LSTMs (LC- or TC-LSTMs) over a pair grid.

    Cell (i, j) of the n x m grid models the prefixes x_{1:i} and y_{1:j}. With one affine
    map A (fused over the gates) per block, `cell="tight"` (TC-LSTMs, Eq. 9-11) computes

    ```
    [c~; o; i; f1; f2] = [tanh; s; s; s; s](A [x_i; y_j; h_{i,j-1}; h_{i-1,j}] + b)
    c_ij = c~ * i + f1 * c_{i,j-1} + f2 * c_{i-1,j};       h_ij = o * tanh(c_ij)
    ```

    and `cell="loose"` (LC-LSTMs, Eq. 5-8) runs two LSTMs (Eq. 1-3): LSTM1 along i on x_i
    with recurrent input [h1_{i-1,j}; h2_{i-1,j}] and memory c1_{i-1,j}; LSTM2 along j on y_j
    with [h1_{i,j-1}; h2_{i,j-1}] and c2_{i,j-1}. Its cell output is [h1_ij; h2_ij]
    (2 * units). LSTM1 and LSTM2 have their own weights, as §3.3's "two standard LSTMs in
    parallel" / "two separated LSTMs" read; `share_streams=True` gives them one weight set.

    A block (§4.2) runs the cell from the four corners (direction d of §4.2.1 takes its
    predecessors from i -/+ 1 and j -/+ 1) and sums the four grids (Eq. 13; for LC h1 and h2
    are summed separately). The directions share one weight set (`share_directions=True`);
    False gives each its own, as the directions of a bidirectional LSTM. Blocks are stacked;
    block l >= 2 takes the summed grid of block l - 1 in place of the words: TC replaces
    [x_i; y_j] by h^_ij (units), LC feeds h^1_ij to LSTM1 and h^2_ij to LSTM2. Each block has
    its own weights. Table 2's parameter counts are reproduced by shared directions and, for
    LC, a shared LSTM pair; the text reads separate LSTMs for LC and leaves the directions
    open (docs/clstm.md#open-choices, docs/clstm.md#parameter-counts). Boundary states
    (outside the grid) are zeros [U→S].

    Computation: cell (i, j) needs only cells of the anti-diagonal i + j - 1, so each block
    scans the n + m - 1 anti-diagonals in ONE compiled loop (`carry_scan`, a while loop in
    every backend, with unknown n and m, XLA-compilable), updating all cells of a diagonal at
    once. The state carried is the previous diagonal held along the shorter sentence, say by
    row i: the column predecessor (i, j - 1) is the same slot, the row predecessor (i - 1, j)
    the slot before. Held by column j, the scan is that of the transposed grid, whose weights
    (and LC's two LSTMs) trade places. The input terms and masks are gathered into the
    diagonals' layout before the loop, so a step is one (batched) matmul over every stream
    and direction, the gates and a shift. Directions 2-4 are direction 1 on length-aware
    reversed sentences (see `reverse_real`), batched with direction 1 into one scan and
    reversed back.

    Args:
        units: int, hidden size k (50 in the paper).
        cell: "tight" (TC-LSTMs) or "loose" (LC-LSTMs).
        num_layers: int, stacked blocks (1; 4 for SNLI and 3 for Yahoo in the paper).
        directions: list of direction ids in {1, 2, 3, 4}; [1] is the paper's
            "(Single Direction)" row, [1, 2, 3, 4] (default) its four-directional blocks.
        share_streams: LC only: one weight set for LSTM1 and LSTM2 (default False: two, the
            text's "two separated LSTMs"; True reproduces Table 2's LC counts).
        share_directions: one weight set for every direction of a block (default True:
            what Table 2's equal single- and four-direction counts need); False gives each
            direction its own.
        kernel_initializer: initializer of the input and recurrent kernels. U[-0.1, 0.1]
            as the paper initialises every non-embedding parameter (§6.1).
        bias_initializer: initializer of the gate biases (U[-0.1, 0.1], same reason).
        kernel_regularizer: optional regularizer of the kernels (the paper's L2).
        rematerialize: recompute each block's scan in the backward pass (`keras.remat`)
            instead of keeping its activations from the forward pass: the same outputs and
            gradients, with the memory of one block's activations instead of the whole
            stack's, for one more forward scan per block (docs/clstm.md#memory).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[x, y]`, float tensors (B, n, e_x) and (B, m, e_y) (e_x = e_y for LC
            with `share_streams`, whose two LSTMs then share the input kernel).
        mask: optional list `[mask_x, mask_y]`, float (B, n) and (B, m), 1 on real tokens
            and 0 on padding; padding must be at the end (right padding).
        training: unused, accepted for a uniform signature.

    Returns:
        Float tensor (B, n, m, d_out): the summed grid of the top block, d_out = units (TC)
        or 2 * units (LC, [h^1; h^2]).

    Masking:
        A cell is real when both its row and its column are real tokens. Every state at a
        padded or out-of-grid cell is set to zero at each step, so padded rows and columns
        act exactly like the zero boundary and never reach a real cell, in every direction
        (the length-aware reversal keeps padding at the end). The output is 0 at padded
        cells. No Keras mask is propagated.

    Example:

    >>> x, y = keras.random.normal((2, 5, 8)), keras.random.normal((2, 4, 8))
    >>> grid = CoupledLSTM(6, cell="tight", num_layers=2)([x, y])
    >>> tuple(grid.shape)
    (2, 5, 4, 6)

    References:
        Liu, Qiu, Zhou, Chen and Huang, "Modelling Interaction of Sentence Pair with
        Coupled-LSTMs", EMNLP 2016: Eq. 1-3 (LSTM), 5-8 (LC), 9-11 (TC), §4.2 and Eq. 13
        (directions, aggregation, stacking), Table 2 (parameter counts).
    """

    def __init__(
        self,
        units,
        cell="tight",
        num_layers=1,
        directions=(1, 2, 3, 4),
        share_streams=False,
        share_directions=True,
        kernel_initializer=None,
        bias_initializer=None,
        kernel_regularizer=None,
        rematerialize=False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if cell not in _CELLS:
            raise ValueError(f"cell must be one of {_CELLS}, got {cell!r}")
        directions = [int(d) for d in directions]
        if (
            not directions
            or set(directions) - set(_REVERSALS)
            or len(set(directions)) != len(directions)
        ):
            raise ValueError(f"directions must be distinct ids in 1..4, got {directions}")
        if cell == "tight" and share_streams:
            raise ValueError("share_streams applies to LC (cell='loose'); TC has one cell")
        self.units = int(units)
        self.cell = cell
        self.num_layers = int(num_layers)
        self.directions = directions
        self.share_streams = bool(share_streams)
        self.share_directions = bool(share_directions)
        self.kernel_initializer = keras.initializers.get(kernel_initializer or paper_uniform())
        self.bias_initializer = keras.initializers.get(bias_initializer or paper_uniform())
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)
        self.rematerialize = bool(rematerialize)
        # TC: one cell with gates (c~, o, i, f1, f2). LC: one LSTM cell (c~, o, i, f) run as
        # two streams (LSTM1 along i, LSTM2 along j).
        self.num_gates = 5 if cell == "tight" else 4
        self.num_streams = 1 if cell == "tight" else 2
        self.output_dim = self.units * self.num_streams
        # Weight sets of a block: one per LC stream unless shared, one per direction unless
        # shared.
        self.stream_sets = 1 if self.share_streams else self.num_streams
        self.direction_sets = 1 if self.share_directions else len(directions)

    def build(self, input_shape):
        x_shape, y_shape = input_shape
        if self.cell == "loose" and self.share_streams and x_shape[-1] != y_shape[-1]:
            raise ValueError("with share_streams, LC's one input kernel needs x and y equally wide")
        # block[name][stream set][direction set]: one variable.
        self.blocks = [
            {
                name: [
                    [
                        self._add_block_weight(name, layer, stream, direction, x_shape, y_shape)
                        for direction in range(self.direction_sets)
                    ]
                    for stream in range(self.stream_sets)
                ]
                for name in _WEIGHTS
            }
            for layer in range(self.num_layers)
        ]

    def _add_block_weight(self, name, layer, stream, direction, x_shape, y_shape):
        k, gates = self.units, self.num_gates * self.units
        if name == "bias":
            shape = (gates,)
        elif name == "recurrent_kernel":
            shape = (2 * k, gates)
        elif layer > 0:
            shape = (k, gates)  # the summed grid of the block below (per LC stream)
        elif self.cell == "tight":
            shape = (x_shape[-1] + y_shape[-1], gates)  # [x_i; y_j]
        else:
            shape = ((x_shape, y_shape)[stream][-1], gates)  # LSTM1 reads x_i, LSTM2 y_j
        parts = [f"block{layer + 1}"]
        if self.direction_sets > 1:
            parts.append(f"direction{self.directions[direction]}")
        if self.stream_sets > 1:
            parts.append(f"lstm{stream + 1}")
        # Distinct seed offsets for every weight; the first set keeps 3 * layer + index.
        weight_set = direction * self.stream_sets + stream
        offset = 3 * (self.num_layers * weight_set + layer) + _WEIGHTS.index(name)
        initializer = self.bias_initializer if name == "bias" else self.kernel_initializer
        return self.add_weight(
            shape=shape,
            name="_".join(parts + [name]),
            initializer=fresh_initializer(initializer, offset=offset),
            regularizer=None if name == "bias" else self.kernel_regularizer,
        )

    def _block_weights(self, block):
        """name -> one tensor per stream set: (I, G) shared by the directions, or (D, I, G)
        with one (I, G) per direction in `self.directions` order. Each variable is read
        through `.value`: JAX's ops refuse a Keras variable outside a compiled function."""
        return {
            name: [
                ops.stack([w.value for w in per_direction])
                if len(per_direction) > 1
                else per_direction[0].value
                for per_direction in sets
            ]
            for name, sets in block.items()
        }

    def call(self, inputs, mask=None, training=None):
        x, y = inputs
        mask_x, mask_y = unpack_pair_mask(mask)
        if mask_x is None:
            mask_x = ops.ones(ops.shape(x)[:2], dtype=x.dtype)
        if mask_y is None:
            mask_y = ops.ones(ops.shape(y)[:2], dtype=y.dtype)
        mask_x, mask_y = ops.cast(mask_x, x.dtype), ops.cast(mask_y, x.dtype)
        len_x = ops.cast(ops.sum(mask_x, axis=1), "int32")
        len_y = ops.cast(ops.sum(mask_y, axis=1), "int32")
        copies = len(self.directions)
        masks = (
            ops.concatenate([mask_x] * copies, axis=0),
            ops.concatenate([mask_y] * copies, axis=0),
        )

        def per_direction(t, x_axis, y_axis):
            # One copy of `t` per direction, stacked on the batch axis, each in the
            # orientation in which that direction is the direction-1 scan.
            return ops.concatenate(
                [_orient(t, d, len_x, len_y, x_axis, y_axis) for d in self.directions], axis=0
            )

        grid = None
        for layer, block in enumerate(self.blocks):
            if layer == 0:
                inputs = (per_direction(x, 1, None), per_direction(y, None, 1))
            else:
                inputs = per_direction(grid, 1, 2)
            if self.rematerialize:
                out = self._rematerialized_scan(block, inputs, *masks)
            else:
                out = self._scan(self._block_weights(block), inputs, *masks)
            # Eq. 13: each direction's grid back in the original orientation, summed.
            chunks = ops.split(out, copies, axis=0)
            grid = sum(
                _orient(chunk, d, len_x, len_y, 1, 2) for d, chunk in zip(self.directions, chunks)
            )
        return grid

    def _rematerialized_scan(self, block, inputs, mask_x, mask_y):
        """`_scan` of `block` under `keras.remat`: the same result, recomputed in the backward
        pass. The block's weights are read inside the recomputed function, as `keras.remat`
        expects of variables (TF's `recompute_grad` watches the variables its function reads;
        read outside and passed in as tensors, their gradients came out doubled eagerly), and
        the inputs enter as flat tensors."""

        def scan(*tensors):
            inputs_ = keras.tree.pack_sequence_as(inputs, tensors[:-2])
            return self._scan(self._block_weights(block), inputs_, *tensors[-2:])

        return keras.remat(scan)(*keras.tree.flatten(inputs), mask_x, mask_y)

    def _cell_inputs(self, weights, inputs, rows, cols, by_rows):
        """Input pre-activations (B', S, *rows.shape, G) of the cells (rows, cols), bias
        included, per stream of the scan held along rows (`by_rows`) or columns (see
        `_held_kernels`; TC: one stream, LC: LSTM1 then LSTM2 by rows, swapped by columns).

        `inputs` is `(xs, ys)`, the words (B', n, e_x) and (B', m, e_y), for the first block
        and the summed grid (B', n, m, d_out) of the block below for the others.
        """
        kernels, biases = weights["input_kernel"], weights["bias"]
        if self.cell == "tight":
            kernel, bias = (
                ops.where(by_rows, w[0], _blocks(w[0], _TC_SWAP)) for w in (kernels, biases)
            )
            if isinstance(inputs, tuple):
                xs, ys = inputs
                e = ops.shape(xs)[-1]
                row = _add_bias(_matmul(xs, kernel[..., :e, :]), bias)
                col = _matmul(ys, kernel[..., e:, :])
                return (ops.take(row, rows, axis=1) + ops.take(col, cols, axis=1))[:, None]
            shape = ops.shape(inputs)
            flat = ops.reshape(inputs, (shape[0], -1, shape[-1]))
            cells = ops.take(flat, (rows * shape[2] + cols)[None], axis=1)
            return _add_bias(_matmul(cells, kernel), bias)
        if isinstance(inputs, tuple):
            # LSTM1 reads x_i, LSTM2 y_j: both tables in one, the held stream first.
            xs, ys = inputs
            table = ops.concatenate(
                [
                    _add_bias(_matmul(xs, kernels[0]), biases[0]),
                    _add_bias(_matmul(ys, kernels[-1]), biases[-1]),
                ],
                axis=1,
            )
            index = ops.stack(_trade([rows, ops.shape(xs)[1] + cols], by_rows))
            return ops.take(table, index, axis=1)
        # LSTM s reads its half h^s of the grid below: half (cell, s) is row 2 * cell + s.
        shape = ops.shape(inputs)
        halves = ops.reshape(inputs, (shape[0], -1, self.units))
        cell = 2 * (rows * shape[2] + cols)
        cells = ops.take(halves, ops.stack(_trade([cell, cell + 1], by_rows)), axis=1)
        kernel = ops.stack(_trade([kernels[0], kernels[-1]], by_rows))
        bias = ops.stack(_trade([biases[0], biases[-1]], by_rows))
        by_stream = ops.moveaxis(cells, 1, 0)
        return ops.moveaxis(_add_bias(_matmul(by_stream, kernel), bias), 0, 1)

    def _held_kernels(self, recurrent, by_rows):
        """Recurrent kernels (S, [D,] 2k, G) of the scan held along rows (`by_rows`) or
        columns, the frame `_cell` computes in.

        Held by rows, the column predecessor is the "same" slot and the row predecessor the
        "back" slot. Held by columns, it is the transposed grid (X and Y swapped) held by rows:
        for TC the two recurrent halves and the forget gates f1, f2 trade places; for LC LSTM1
        and LSTM2 trade places, and so do h1 and h2 in their recurrent input.
        """

        def swap_rows(kernel):
            return _blocks(kernel, (1, 0), axis=-2)

        if self.cell == "tight":
            kernel = recurrent[0]
            return ops.where(by_rows, kernel, _blocks(swap_rows(kernel), _TC_SWAP))[None]
        first, second = recurrent[0], recurrent[-1]
        return ops.stack(
            [
                ops.where(by_rows, first, swap_rows(second)),
                ops.where(by_rows, second, swap_rows(first)),
            ]
        )

    def _cell(self, kernels, pre_in, same, back, keep):
        """(h, c), each (S, B', R, k), of R cells per batch entry updated at once (Eq. 5-11),
        in the frame of `_held_kernels` (held by rows).

        `pre_in` (S, B', R, G) holds the cells' input pre-activations; `same` and `back` the
        (h, c) of their column predecessors (i, j - 1) and row predecessors (i - 1, j);
        `keep` (B', R, 1) is 0 where a cell is padding or off the grid, whose states are zeroed.
        """
        (h_same, c_same), (h_back, c_back) = same, back
        if self.cell == "tight":
            # Eq. 9 orders the recurrent input as [h_{i,j-1}; h_{i-1,j}].
            recurrent = ops.concatenate([h_same, h_back], axis=-1)
            memories = (c_same, c_back)
        else:
            # LSTM1 recurs on the row predecessor, LSTM2 on the column predecessor; both read
            # [h1; h2] of their predecessor.
            recurrent = ops.stack(
                [ops.concatenate(ops.unstack(h), axis=-1) for h in (h_back, h_same)]
            )
            memories = (ops.stack([ops.unstack(c_back)[0], ops.unstack(c_same)[1]]),)
        cand, out_gate, in_gate, *forget = _gates(pre_in + _matmul(recurrent, kernels), self.units)
        c = ops.tanh(cand) * ops.sigmoid(in_gate)
        for gate, memory in zip(forget, memories):
            c = c + ops.sigmoid(gate) * memory
        c = c * keep  # padded and off-grid cells: c = 0, hence h = 0 too
        return ops.sigmoid(out_gate) * ops.tanh(c), c

    def _scan(self, weights, inputs, mask_x, mask_y, by_rows=None):
        """All cells of one block in one pass over the anti-diagonals -> (B', n, m, d_out).

        Each diagonal is held along the shorter sentence (by row i if n <= m, else by column
        j; `by_rows` forces one), in min(n, m) + 1 slots: the last is always off the grid.
        Along the held axis, a cell's predecessor across it has the same slot in the previous
        diagonal and its predecessor along it the slot before (`_back`). The scan by columns
        is the scan by rows of the transposed grid, with the weights and streams swapped
        (`_held_kernels`); the choice is a run-time select on indices and weights before the
        loop, not control flow, so one trace serves every batch shape and XLA compiles it.
        Every gather (input terms, masks) happens before the loop too: a step is one matmul,
        the gates and a shift of the state.
        """
        batch, n = ops.shape(mask_x)[0], ops.shape(mask_x)[1]
        m = ops.shape(mask_y)[1]
        steps = n + m - 1
        by_rows = n <= m if by_rows is None else by_rows
        if isinstance(by_rows, bool):
            # Static lengths (JAX always, TF when traced per shape): the slot count must stay
            # a Python int, since JAX's `arange` under `jit` takes no traced bound.
            slots = (n if by_rows else m) + 1
        else:
            slots = ops.where(by_rows, n, m) + 1
        by_rows = ops.convert_to_tensor(by_rows)
        held = ops.arange(slots, dtype="int32")[None, :]
        across = ops.arange(steps, dtype="int32")[:, None] - held  # (steps, slots)
        rows, cols = ops.where(by_rows, held, across), ops.where(by_rows, across, held)
        in_grid = (rows >= 0) & (rows < n) & (cols >= 0) & (cols < m)
        rows, cols = ops.clip(rows, 0, n - 1), ops.clip(cols, 0, m - 1)
        keep = (
            ops.take(mask_x, rows, axis=1)
            * ops.take(mask_y, cols, axis=1)
            * ops.cast(in_grid, mask_x.dtype)
        )
        pre_in = self._cell_inputs(weights, inputs, rows, cols, by_rows)  # (B', S, steps, slots, G)
        kernels = self._held_kernels(weights["recurrent_kernel"], by_rows)

        def step(state, xs):
            pre, keep_t = xs
            return self._cell(kernels, pre, state, tuple(_back(s) for s in state), keep_t)

        zeros = ops.zeros((self.num_streams, batch, slots, self.units), dtype=mask_x.dtype)
        _, (h, _) = carry_scan(
            step,
            (zeros, zeros),
            (ops.transpose(pre_in, (2, 1, 0, 3, 4)), ops.moveaxis(keep, 1, 0)[..., None]),
        )
        # h[t, s, b, a]: held stream s of the cell at slot a of diagonal t; cell (i, j) is on
        # diagonal i + j, at slot i by rows or j by columns, LC's streams swapped by columns.
        streams, k = self.num_streams, self.units
        by_slot = ops.reshape(ops.transpose(h, (2, 0, 3, 1, 4)), (batch, -1, k))
        rows = ops.arange(n, dtype="int32")[:, None, None]
        cols = ops.arange(m, dtype="int32")[None, :, None]
        stream = ops.arange(streams, dtype="int32")
        stream = ops.where(by_rows, stream, streams - 1 - stream)
        index = ((rows + cols) * slots + ops.where(by_rows, rows, cols)) * streams + stream
        return ops.reshape(
            ops.take(by_slot, ops.reshape(index, (-1,)), axis=1), (batch, n, m, streams * k)
        )

    def compute_output_shape(self, input_shape):
        x_shape, y_shape = input_shape
        return (x_shape[0], x_shape[1], y_shape[1], self.output_dim)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "cell": self.cell,
                "num_layers": self.num_layers,
                "directions": list(self.directions),
                "share_streams": self.share_streams,
                "share_directions": self.share_directions,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
                "kernel_regularizer": keras.regularizers.serialize(self.kernel_regularizer),
                "rematerialize": self.rematerialize,
            }
        )
        return config
