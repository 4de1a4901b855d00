"""Variable-length rows of integer ids held in two flat arrays, one feature of a whole split.

A split of N pairs keeps each feature (the word ids of one side, its POS ids, ...) as one
`values` array holding every row end to end and N + 1 `row_splits` offsets: row i is
`values[row_splits[i]:row_splits[i + 1]]`. That is the layout of `tf.RaggedTensor`, which
`pipeline.batches_dataset` builds from the two arrays without copying rows together, and the
lengths are the offsets' differences.

With a `table`, the values index its rows: the per-token character grid of a split is stored
as one row of character ids per distinct token string (row 0 all padding) and one index per
token, so a token's characters are computed once per split however often it occurs.
"""

import numpy as np


class RaggedIds:
    """N rows of int32 ids: `values` end to end, row i from `row_splits[i]` to `row_splits[i + 1]`.

    Args:
        values: (T,) int32 ids of all rows; with `table`, indices into its rows.
        row_splits: (N + 1,) int64 non-decreasing offsets into `values`, from 0 to T.
        table: optional (K, ...) int32 array whose row 0 is all zeros (padding); row i is
            then `table[values[...]]`, of shape (length, *table.shape[1:]).
    """

    def __init__(self, values, row_splits, table=None):
        self.values = np.asarray(values, dtype=np.int32)
        self.row_splits = np.asarray(row_splits, dtype=np.int64)
        self.table = None if table is None else np.asarray(table, dtype=np.int32)
        if self.row_splits.ndim != 1 or not len(self.row_splits) or self.row_splits[0] != 0:
            raise ValueError("row_splits must be a non-empty 1-d array starting at 0")
        if self.row_splits[-1] != len(self.values) or (np.diff(self.row_splits) < 0).any():
            raise ValueError(
                f"row_splits must rise from 0 to the {len(self.values)} values, "
                f"got {self.row_splits[-1]}"
            )
        if self.table is not None and (not len(self.table) or self.table[0].any()):
            raise ValueError("a table's row 0 must be all zeros: batches pad with index 0")

    @classmethod
    def from_rows(cls, rows):
        """The rows of a list of 1-d (or, then stored under a table, n-d) int arrays."""
        rows = [np.asarray(row, dtype=np.int32) for row in rows]
        splits = np.zeros(len(rows) + 1, np.int64)
        np.cumsum([len(row) for row in rows], out=splits[1:])
        if rows and rows[0].ndim > 1:
            inner = rows[0].shape[1:]
            table = np.concatenate([np.zeros((1, *inner), np.int32), *rows])
            return cls(np.arange(1, len(table), dtype=np.int32), splits, table)
        values = np.concatenate(rows) if rows else np.zeros(0, np.int32)
        return cls(values, splits)

    def __len__(self):
        return len(self.row_splits) - 1

    def row(self, i):
        """Row `i`: (length,) ids, or (length, *table.shape[1:]) with a table."""
        ids = self.values[self.row_splits[i] : self.row_splits[i + 1]]
        return ids if self.table is None else self.table[ids]

    def lengths(self):
        """(N,) int64 length of every row."""
        return np.diff(self.row_splits)
