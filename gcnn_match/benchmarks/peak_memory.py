"""The peak resident memory of a piece of work, from the process' RSS high-water mark."""


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
