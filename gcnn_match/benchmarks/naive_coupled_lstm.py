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

    def _scan(self, weights, row_term, col_term, grid_term, mask_x, mask_y):
        width = self.num_streams * self.units
        batch, n, m = tf.shape(mask_x)[0], tf.shape(mask_x)[1], tf.shape(mask_y)[1]
        dtype = mask_x.dtype
        zeros = tf.zeros((batch, 1, width), dtype)

        def body(index, h_left, c_left, cells):
            i, j = index // m, index % m
            first_column = tf.equal(j, 0)  # (i, 0) has the zero boundary on its left
            col_pred = tuple(tf.where(first_column, zeros, s) for s in (h_left, c_left))
            above = tf.cond(
                i > 0,
                lambda: cells.read(tf.maximum(index - m, 0))[:, None],
                lambda: tf.zeros((batch, 1, 2 * width), dtype),
            )
            row_pred = (above[..., :width], above[..., width:])
            if grid_term is None:
                pre_in = row_term[:, i][:, None] + col_term[:, j][:, None]
            else:
                pre_in = self._grid_input(weights, grid_term[:, i, j][:, None])
            valid = (mask_x[:, i] * mask_y[:, j])[:, None]
            h, c = self._cell(weights, pre_in, col_pred, row_pred, valid)
            cells = cells.write(index, tf.concat([h, c], axis=-1)[:, 0])
            return index + 1, h, c, cells

        cells = tf.TensorArray(
            dtype, size=n * m, clear_after_read=False, element_shape=(None, 2 * width)
        )
        _, _, _, cells = tf.while_loop(
            lambda index, *_: index < n * m, body, (tf.constant(0), zeros, zeros, cells)
        )
        by_cell = tf.transpose(cells.stack()[..., :width], (1, 0, 2))  # (B', n·m, width)
        return tf.reshape(by_cell, (batch, n, m, width))
