"""Peak memory of a piece of work: the process' RSS high-water mark, or a GPU's allocator peak."""


def _status_kib(field):
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


class PeakMemory:
    """Peak resident memory growth (bytes) of the work done inside a `with` block.

    The process' RSS high-water mark (Linux VmHWM) is reset on entry, by writing "5" to
    /proc/self/clear_refs, and read on exit; `bytes` is that peak minus the RSS on entry:
    everything the work kept resident at its worst moment (weights, optimizer slots,
    activations, gradients, the allocator's caches, compiled kernels). Memory that the
    process freed before entry but its allocator kept is reused without being counted, so
    measure in a fresh process for a footprint. `peak_bytes` is the high-water mark itself,
    the process' own resident memory included, which such reuse cannot lower. Both stay None
    where the mark cannot be reset (not Linux). Not tracemalloc (it sees Python objects
    only, not TF's buffers), and not `tf.config.experimental.get_memory_info`, which reports
    0 for CPU devices.
    """

    def __enter__(self):
        self.bytes, self.peak_bytes, self._start = None, None, None
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
                handle.write("5")
            self._start = _status_kib("VmRSS") * 1024
        except OSError:
            pass
        return self

    def __exit__(self, *exc):
        if self._start is not None:
            self.peak_bytes = _status_kib("VmHWM") * 1024
            self.bytes = max(0, self.peak_bytes - self._start)
        return False


class DevicePeakMemory:
    """The peak memory of the device the work inside a `with` block computes on.

    On a GPU, the allocator's high-water mark of the first GPU: JAX's `peak_bytes_in_use`
    (since the process started: measure in a fresh process) or TensorFlow's peak (reset on
    entry). On the CPU, `PeakMemory`'s growth of the resident set. `bytes` holds the result and
    `kind` what it counts ("gpu" or "host RSS growth"); `bytes` stays None where neither can be
    read.
    """

    def __enter__(self):
        import keras

        self._backend = keras.backend.backend()
        self.bytes, self.kind, self._host = None, None, None
        if self._backend == "tensorflow":
            import tensorflow as tf

            if tf.config.list_logical_devices("GPU"):
                tf.config.experimental.reset_memory_stats("GPU:0")
                self.kind = "gpu"
        elif self._backend == "jax":
            import jax

            if jax.devices()[0].platform == "gpu":
                self.kind = "gpu"
        if self.kind is None:
            self._host = PeakMemory().__enter__()
            self.kind = "host RSS growth"
        return self

    def __exit__(self, *exc):
        if self._host is not None:
            self._host.__exit__(*exc)
            self.bytes = self._host.bytes
        elif self._backend == "jax":
            import jax

            self.bytes = jax.devices()[0].memory_stats()["peak_bytes_in_use"]
        else:
            import tensorflow as tf

            self.bytes = tf.config.experimental.get_memory_info("GPU:0")["peak"]
        return False
