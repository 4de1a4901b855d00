"""The matmul peak, the peak memory and oneDNN probes measure."""

import numpy as np
import pytest

from gcnn_match.benchmarks.machine import matmul_peak_gflops, onednn_enabled
from gcnn_match.benchmarks.peak_memory import DevicePeakMemory, PeakMemory


def test_matmul_peak_and_peak_memory_are_measured():
    assert 0.1 < matmul_peak_gflops(size=256, repeats=2) < 1e5
    with PeakMemory() as peak:
        block = np.ones(64 * 2**20 // 8)  # 64 MiB, touched
        del block
    assert peak.bytes is not None and peak.bytes >= 60 * 2**20
    # The high-water mark itself counts what the process held before as well.
    assert peak.peak_bytes >= peak.bytes + 10 * 2**20
    with PeakMemory() as idle:
        pass
    assert idle.bytes < 16 * 2**20
    assert isinstance(onednn_enabled(), bool)


def test_the_device_peak_is_the_host_resident_set_on_a_cpu():
    from gcnn_match.training.run_dir import accelerators

    if accelerators():
        pytest.skip("a GPU machine: the device peak is the GPU allocator's")
    with DevicePeakMemory() as peak:
        block = np.ones(64 * 2**20 // 8)  # 64 MiB, touched
        del block
    assert peak.kind == "host RSS growth"
    assert peak.bytes >= 60 * 2**20


def test_tcmalloc_is_found_where_a_distribution_installs_it(tmp_path):
    from gcnn_match.benchmarks.machine import find_tcmalloc

    assert find_tcmalloc([tmp_path]) is None
    (tmp_path / "libtcmalloc.so.4").write_bytes(b"")
    assert find_tcmalloc([tmp_path / "absent", tmp_path]) == str(tmp_path / "libtcmalloc.so.4")
    # The minimal build (no heap profiler) is preferred.
    (tmp_path / "libtcmalloc_minimal.so.4").write_bytes(b"")
    assert find_tcmalloc([tmp_path]) == str(tmp_path / "libtcmalloc_minimal.so.4")
