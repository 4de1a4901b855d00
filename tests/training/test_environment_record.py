"""A run's environment record names the device it trained on and the Keras backend, so runs of
one table trained on different machines can be told apart."""

import keras
import pytest
import tensorflow as tf

from gcnn_match.training.run_dir import (
    accelerators,
    cpu_model,
    environment_record,
    heap_allocator,
)


def test_the_record_names_the_device_and_the_backend():
    record = environment_record("some/data")
    assert record["keras_backend"] == keras.backend.backend()
    gpus = accelerators()
    # A GPU machine names its card; a CPU machine its processor's model.
    assert record["device"] == (gpus[0] if gpus else cpu_model())
    assert record["device"]
    assert record["gpus"] == gpus
    assert record["data_dir"] == "some/data"
    assert record["allocator"] == heap_allocator()


def test_tensorflow_gpus_are_named_by_their_card_not_their_device_path():
    if keras.backend.backend() != "tensorflow":
        pytest.skip("TensorFlow's device names; this process runs another backend")
    physical = tf.config.list_physical_devices("GPU")
    names = accelerators()
    assert len(names) == len(physical)
    assert not any(name.startswith("/physical_device:") for name in names)


def test_the_cpu_model_is_read_from_cpuinfo():
    with open("/proc/cpuinfo", encoding="utf-8") as handle:
        models = [line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")]
    if not models:
        pytest.skip("no model name in /proc/cpuinfo on this machine")
    assert cpu_model() == models[0]


# A line of /proc/self/maps before its path: address range, permissions, offset, device, inode.
_MAPPING = "7f00-7f01 r-xp 0 08:01 1"


@pytest.mark.parametrize(
    "mapped, allocator",
    [
        (f"{_MAPPING} /usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4.5.10\n", "tcmalloc"),
        (f"{_MAPPING} /usr/lib/x86_64-linux-gnu/libjemalloc.so.2\n", "jemalloc"),
        (f"{_MAPPING} /usr/lib/x86_64-linux-gnu/libc.so.6\n", "system malloc"),
    ],
)
def test_the_allocator_is_the_one_mapped_into_the_process(tmp_path, mapped, allocator):
    maps = tmp_path / "maps"
    maps.write_text(mapped, "utf-8")
    assert heap_allocator(maps) == allocator


def test_without_a_maps_file_the_allocator_is_unknown(tmp_path):
    assert heap_allocator(tmp_path / "absent") == "unknown"
