"""The coupled LSTM layer computed one cell at a time: the reference `clstm_speed` times the
wavefront scan against."""

import tensorflow as tf

from gcnn_match.layers.coupled_lstm import CoupledLSTM


class NaiveCoupledLSTM(CoupledLSTM):
    """`CoupledLSTM` computed one cell at a time: the speed reference for the wavefront scan.

    A `tf.while_loop` visits the n·m cells of each block in row-major order (for every
    direction at once, which the parent stacks on the batch axis). The column predecessor
    (i, j - 1) is the cell of the previous step; the row predecessor (i - 1, j) is read back
    from the `TensorArray` of finished cells, m steps earlier. Masking, directions, stacking
    and weights are the parent's, so outputs match it to float rounding.

    Args:
        As `CoupledLSTM`.
    """

    def _scan(self, weights, inputs, mask_x, mask_y):
        streams, k = self.num_streams, self.units
        batch, n, m = tf.shape(mask_x)[0], tf.shape(mask_x)[1], tf.shape(mask_y)[1]
        # Row-major order is the frame of the scan held by rows: the column predecessor is
        # the "same" cell, the row predecessor the "back" one.
        by_rows = tf.constant(True)
        kernels = self._held_kernels(weights["recurrent_kernel"], by_rows)
        # Every cell's input pre-activations (n·m, S, B', G), in row-major order, computed once.
        cell = tf.range(n * m)
        pre_all = tf.transpose(
            self._cell_inputs(weights, inputs, cell // m, cell % m, by_rows), (2, 1, 0, 3)
        )
        zeros = tf.zeros((2, streams, batch, 1, k), mask_x.dtype)  # [h; c] of one cell

        def body(index, left, cells):
            i, j = index // m, index % m
            left = tf.where(tf.equal(j, 0), zeros, left)  # (i, 0): zero boundary on its left
            above = tf.cond(i > 0, lambda: cells.read(tf.maximum(index - m, 0)), lambda: zeros)
            valid = (mask_x[:, i] * mask_y[:, j])[:, None, None]
            h, c = self._cell(
                kernels,
                pre_all[index][:, :, None],
                tf.unstack(left),
                tf.unstack(above),
                valid,
            )
            cell = tf.stack([h, c])
            return index + 1, cell, cells.write(index, cell)

        cells = tf.TensorArray(
            mask_x.dtype, size=n * m, clear_after_read=False, element_shape=zeros.shape
        )
        _, _, cells = tf.while_loop(
            lambda index, *_: index < n * m, body, (tf.constant(0), zeros, cells)
        )
        h = cells.stack()[:, 0, :, :, 0]  # (n·m, S, B', k)
        by_cell = tf.reshape(tf.transpose(h, (2, 0, 1, 3)), (batch, n * m, streams * k))
        return tf.reshape(by_cell, (batch, n, m, streams * k))
