# gcnn_match: every target sets up its own virtual environment first.
#   make test                                  # the whole test suite (CI runs exactly this)
#   make test-fast                             # neither slow nor data: the edit loop
#   make lint                                  # ruff lint (imports sorted) and format check
#   make reproduce-quora SCALE=low-resource DATA_DIR=../shared/data [ROWS=GCNN,CNN] [SEEDS=1,2,3]
#   make claims DATA_DIR=../shared/data        # CLAIMS.md: the papers' claims against our records
#   make curves DATA_DIR=../shared/data [CURVES=gcnn-quora] # learning curves of the headline claims
#   make rehearse [SIZE=tiny]                  # the protocol at full size on synthetic files
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# ACCEL=cpu installs tensorflow-cpu, ACCEL=gpu tensorflow[and-cuda] (TensorFlow's CUDA build,
# never measured here), ACCEL=gpu-jax tensorflow-cpu and jax[cuda12] (never two TensorFlow wheels:
# they clash). Keras picks its backend per process from KERAS_BACKEND (default tensorflow); with
# ACCEL=gpu-jax every target runs KERAS_BACKEND=jax, the path of BENCHMARKS.md's GPU numbers
# (docs/gpu.md). `KERAS_BACKEND=tensorflow make ...` overrides it.
ACCEL ?= cpu
ifeq ($(ACCEL),gpu-jax)
export KERAS_BACKEND ?= jax
endif
DATA_DIR ?= data
RUNS_DIR ?= runs
SCALE ?= low-resource
SEEDS ?= 1
ROWS ?=
# Optional cap on every row's epochs (default: the registered schedule).
EPOCHS ?=
# Config overrides for reproduce-<dataset>, key=value separated by spaces (docs/configuration.md),
# e.g. OVERRIDES="jit_compile=true padding=fixed" on a GPU (docs/gpu.md).
OVERRIDES ?=
# Real benchmark files for the tests marked data (tests/conftest.py marks every test that uses
# them); they skip without the files.
GCNN_MATCH_TEST_DATA ?= $(wildcard ../shared/data)
export GCNN_MATCH_TEST_DATA
export TF_CPP_MIN_LOG_LEVEL ?= 2

.PHONY: install install-latest test test-fast lint format bench latency figures claims curves floor \
	reproduce-mnli data-mnli gpu-plan rehearse

EXTRAS := $(ACCEL),glove,plots,dev,fever,yahoo,jax,aso
# The exact versions that produced REPRODUCTION.md and BENCHMARKS.md (constraints.txt);
# `make install-latest` resolves the newest versions pyproject.toml allows instead.
$(VENV)/.installed: pyproject.toml constraints.txt $(VENV)/.accel-$(ACCEL)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[$(EXTRAS)]"
	touch $@

# The accelerator is part of what is installed: `make install ACCEL=gpu-jax` on an environment
# built for another ACCEL installs again rather than finding nothing to do.
$(VENV)/.accel-$(ACCEL):
	mkdir -p $(VENV)
	rm -f $(VENV)/.accel-*
	touch $@

install-latest:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade -e ".[$(EXTRAS)]"
	$(PY) tools/install_fever_scorer.py
	touch $(VENV)/.installed $(VENV)/.fever-scorer

# The official FEVER scorer (ATTCONV Table 9's ALL and SUB): its PyPI sdist no longer builds
# (setup.py passes license=<builtin>), so the pure-Python package comes from the same release's
# egg on PyPI, pinned by sha256 (see the script's docstring).
$(VENV)/.fever-scorer: $(VENV)/.installed tools/install_fever_scorer.py
	$(PY) tools/install_fever_scorer.py
	touch $@

install: $(VENV)/.installed $(VENV)/.fever-scorer

# The 20 slowest tests are listed at the end, so a test that grows is seen in CI's log.
test: install
	$(PY) -m pytest -q --durations=20 tests

# The edit loop: the equation, mask, reader and unit checks, without the tests marked slow
# (processes, training, XLA compiles, over a second each) or data (the real files). A test of
# neither mark whose call takes over 3 s both of CPU and of the clock fails here
# (GCNN_MATCH_FAST_LIMIT_S changes the limit; a job beside the tests fails none). The tests are independent and mostly single-threaded, so they run in JOBS
# pytest-xdist workers (CONTRIBUTING.md gives the count and the time).
JOBS ?= 2
test-fast: install
	$(PY) -m pytest -q -n $(JOBS) -m "not slow and not data" --durations=10 tests

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: install
	$(PY) -m ruff check --fix --select I .
	$(PY) -m ruff format .

data-%: install
	$(PY) experiments/download.py --dataset=$* --data_dir=$(DATA_DIR)

reproduce-%: install
	$(PY) experiments/reproduce.py --dataset=$* --scale=$(SCALE) --data_dir=$(DATA_DIR) \
	  --runs_dir=$(RUNS_DIR) --seeds=$(SEEDS) $(if $(ROWS),--rows="$(ROWS)") \
	  $(if $(EPOCHS),--epochs=$(EPOCHS)) $(foreach override,$(OVERRIDES),--override=$(override))

# The floor of every table whose files are under DATA_DIR (majority class, TF-IDF + LR; ranking:
# random order, TF-IDF cosine) on the rows' own splits, into results/floor-<table>-<SCALE>.json;
# reproduce.py shows it under the table's rows.
floor: install
	$(PY) experiments/floor.py --all --scale=$(SCALE) --data_dir=$(DATA_DIR)

# MultiNLI is registered as "multinli"; the short name is what users type.
reproduce-mnli: reproduce-multinli
data-mnli: data-multinli

# Every model's cost and each optimisation's before/after ratio (BENCHMARKS.md); MODELS=esim,...
# and STEPS=3 make a quick subset.
bench: install
	$(PY) experiments/bench.py --data_dir=$(DATA_DIR) $(if $(MODELS),--models="$(MODELS)") \
	  $(if $(STEPS),--steps=$(STEPS))

# BENCHMARKS.md's "Full size on this machine" (written once a record exists): the protocol at the official files' size on synthetic
# text (Quora 384,348 training pairs, SNLI 550,152 lines, 300-d vectors: several GB in a temporary
# folder); each row's time to its first training step, peak memory, checkpoint size and host
# pipeline pairs/s, into results/rehearsal-<machine>.json. SIZE=tiny: a few hundred pairs (into
# results/rehearsal-<machine>-tiny.json; the section is printed, BENCHMARKS.md left as it is).
rehearse: install
	$(PY) experiments/rehearse.py $(if $(SIZE),--size=$(SIZE))

# Each table on one GPU (BENCHMARKS.md): every registered row's training step timed and its
# peak memory measured on this device at the paper's batch size and cut-offs, on synthetic pairs
# shaped like its dataset, and the hours of its registered schedule on the full training split;
# record in results/gpu-plan-<device>.json. Under 8 minutes on one H100; KERAS_BACKEND defaults
# to jax here (the measured GPU path). TABLES=gcnn-quora,... narrows it; WORKERS=8 rows at a time;
# DEADLINE=420: seconds after which rows not measured are listed as such.
gpu-plan: install
	KERAS_BACKEND=$(or $(KERAS_BACKEND),jax) $(PY) experiments/gpu_plan.py \
	  $(if $(TABLES),--tables="$(TABLES)") $(if $(WORKERS),--workers=$(WORKERS)) \
	  $(if $(DEADLINE),--deadline_seconds=$(DEADLINE))

# COIN Table 5: CPU latency of COIN vs a BERT-base-shaped encoder (keras-hub). keras-hub is
# installed without its dependencies: they would pull the full `tensorflow` wheel, which clashes
# with tensorflow-cpu; what it imports is already installed.
latency: install
	$(PY) -m pip install --quiet --no-deps "keras-hub>=0.32" tokenizers
	$(PY) experiments/latency.py $(if $(BATCHES),--batches=$(BATCHES))

# Training curves of every run under RUNS_DIR (into <run>/figures/), paper-vs-ours bars of
# every results/*.json table (into figures/), then the per-paper attention/activation figures.
figures: install
	$(PY) experiments/figures.py --runs_dir=$(RUNS_DIR) --results_dir=results --figures_dir=figures
	$(PY) experiments/visualize.py --runs_dir=$(RUNS_DIR) --all

# CLAIMS.md and figures/claims-<paper>.png: each comparative claim of the papers against the
# committed records only (results/predictions/, results/epoch-times-*.json, results/bench*.json,
# results/latency.json), so a fresh clone renders the same verdicts; trains nothing. A claim
# whose rows never ran names the command and, where the folder DATA_DIR exists, which dataset
# splits its rows read are missing.
claims: install
	$(PY) experiments/claims.py $(if $(wildcard $(DATA_DIR)),--data_dir=$(DATA_DIR))

# Learning curves (docs/design.md#learning-curves): the rows of each headline claim trained on
# nested subsets of ~1k, ~3k and all ~9k low-resource training pairs, 3 seeds; finished runs are
# skipped. Records in results/curves-<name>.json, figures/curves-<name>.png and
# LEARNING_CURVES.md. CURVES=gcnn-quora,attconv-snli,coin-quora picks some.
curves: install
	$(PY) experiments/curves.py --data_dir=$(DATA_DIR) --runs_dir=$(RUNS_DIR) \
	  $(if $(CURVES),--curve="$(CURVES)") $(if $(EPOCHS),--epochs=$(EPOCHS))

clean:
	rm -rf $(VENV) $(RUNS_DIR) data/cache .pytest_cache .ruff_cache *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
