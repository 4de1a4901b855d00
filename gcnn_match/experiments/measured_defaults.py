"""Speed settings chosen per model from this machine's measurements (`make bench`).

`register` (experiments/registry.py) gives every registered row of a model listed here that
model's jit_compile (replacing the row's); the `--jit_compile` flag of train.py still
overrides it for a run. Each entry cites the
measurement it comes from; `make bench` prints what its own measurements suggest beside these
values (the "Settings these measurements support" table of BENCHMARKS.md). Models not listed
keep XLA off: with per-batch padding every new batch shape compiles again, which costs more
than it saves unless the compiled step is clearly faster.

oneDNN (TF_ENABLE_ONEDNN_OPTS) and the backend (KERAS_BACKEND) are read once per process, so
they are not per-row settings; the benchmark reports which is faster for each model.
"""

# model registry name -> jit_compile.
# Measured 2026-11-22 on the 2-core Xeon (oneDNN on) while other jobs loaded it (load ~6), by
#   python experiments/bench.py --data_dir=../shared/data --tables=gcnn-quora \
#     --rows=GCNN,"ESIM (our implement)" --steps=4 --warmup=1 --compare=xla,fused
# (bucketed Quora batches, XLA on and off timed interleaved after a warm-up over every shape):
JIT_COMPILE = {
    # GCNN: XLA on/off 0.88x; XLA's warm-up (one compile per batch shape) 48.6 s vs 7.6 s.
    "compare_aggregate": False,
    # ESIM: XLA on/off 0.74x; warm-up 55.7 s vs 23.1 s.
    "esim": False,
}


def jit_compile(model):
    return JIT_COMPILE.get(model, False)


def apply(config):
    """`config` with its model's measured jit_compile, if its model is listed."""
    if config.model not in JIT_COMPILE:
        return config
    return config.replace(jit_compile=JIT_COMPILE[config.model])
