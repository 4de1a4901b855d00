"""RaggedIds: rows of ids in one values array and its offsets, optionally through a table."""

import numpy as np
import pytest

from gcnn_match.data.ragged_ids import RaggedIds


def test_rows_and_lengths_come_from_the_offsets():
    ragged = RaggedIds([5, 6, 7, 8], [0, 3, 3, 4])
    assert len(ragged) == 3
    assert ragged.lengths().tolist() == [3, 0, 1]
    assert ragged.row(0).tolist() == [5, 6, 7]
    assert ragged.row(1).tolist() == []
    assert ragged.row(2).dtype == np.int32 and ragged.row(2).tolist() == [8]


def test_a_table_turns_each_value_into_its_row():
    table = np.array([[0, 0], [3, 4], [5, 0]])
    ragged = RaggedIds([2, 1, 2], [0, 1, 3], table)
    assert ragged.row(1).tolist() == [[3, 4], [5, 0]]
    assert ragged.row(0).shape == (1, 2)


def test_from_rows_keeps_every_row():
    rows = [np.array([1, 2]), np.array([], np.int32), np.array([3])]
    ragged = RaggedIds.from_rows(rows)
    assert [ragged.row(i).tolist() for i in range(3)] == [[1, 2], [], [3]]
    grids = [np.array([[1, 2], [3, 4]]), np.zeros((0, 2), np.int32)]
    ragged = RaggedIds.from_rows(grids)
    assert ragged.table[0].tolist() == [0, 0]  # row 0 pads
    assert ragged.row(0).tolist() == [[1, 2], [3, 4]] and ragged.row(1).shape == (0, 2)
    assert len(RaggedIds.from_rows([])) == 0


@pytest.mark.parametrize(
    "splits, table",
    [([1, 2], None), ([0, 3, 2], None), ([0, 1], None), ([0, 2], [[1, 1], [0, 0]])],
)
def test_inconsistent_offsets_or_table_are_refused(splits, table):
    with pytest.raises(ValueError):
        RaggedIds([1, 1], splits, table)
