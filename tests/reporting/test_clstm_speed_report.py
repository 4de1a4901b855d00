"""Growth exponents fitted to the C-LSTM speed rows."""

import pytest

from gcnn_match.reporting.clstm_speed_report import growth_exponents


def test_growth_exponent_of_a_linear_cost_is_one():
    rows = [
        {"cell": "loose", "batch": 1, "cells": c, "wavefront_ms": 0.5 * c} for c in (64, 256, 1024)
    ]
    assert growth_exponents(rows, "wavefront_ms") == {"loose, batch 1": pytest.approx(1.0)}
    rows = [dict(row, updates=row["cells"] ** 2) for row in rows]
    assert growth_exponents(rows, "wavefront_ms", "updates") == {
        "loose, batch 1": pytest.approx(0.5)
    }
