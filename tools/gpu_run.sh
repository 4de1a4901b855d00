#!/usr/bin/env bash
# A time-boxed run on a fresh GPU machine (docs/gpu.md#a-time-boxed-gpu-run): install the carried
# packages, run `make gpu-plan`, then train the rows whose registered schedule is too long for a
# 2-core CPU (four stacked LC C-LSTMs, low-resource split, seeds 1-5, all registered epochs, whose
# hours CLAIMS.md gives; ROWS names others), resuming the runs a previous call left, until the
# given time is spent.
#
#   tools/gpu_run.sh prepare            # on the CPU machine, once: fills .dev/
#   tools/gpu_run.sh [SECONDS]          # on the GPU machine (default 560 s in all):
#                                           # the plan, then training in the time left
#   PLAN=0 tools/gpu_run.sh [SECONDS]   # a later call: training only (resumes)
#
# Carried in the repository (ignored by git: .dev/ and .whl/ in .gitignore):
#   .whl/*.whl, .whl/*.tar.xz  packages the machine lacks (keras, tensorflow-cpu for tf.data,
#                              nltk, ...): wheels, or installed trees packed as tar.xz
#   .dev/data/snli/            the SNLI dev and test files (`prepare` copies them)
#   .dev/cache/                the rows' tokenization and embedding cache (`prepare` builds it,
#                              so the GloVe package need not travel)
#   .dev/runs.tar              run directories a previous call stopped (to resume)
# Left behind for the caller to copy back: results/gpu-plan-*.json, BENCHMARKS.md,
# results/c-lstms-snli-low-resource.json, REPRODUCTION.md, results/predictions/, and
# .dev/runs.tar (the run directories, finished or to resume). With $OUT set to a folder, they
# are also copied there.
set -uo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-four_stacked_lc_lstms}
SEEDS=${SEEDS:-1,2,3,4,5}
PY=${PY:-python3}
DEV=.dev

if [ "${1:-}" = prepare ]; then
  DATA=${DATA_DIR:-../shared/data}
  mkdir -p "$DEV/data" "$DEV/cache"
  cp -r "$DATA/snli" "$DEV/data/"
  # The cold start of each row builds the cache the runs read.
  PYTHONPATH=$PWD "${PY_PREPARE:-.venv/bin/python}" -c "
from gcnn_match.benchmarks.experiment_cost import cache_start_seconds
from gcnn_match.experiments import registry
for config in registry.select(table='c-lstms-snli', rows='$ROWS'.split(',')):
    print(config.name, round(cache_start_seconds(config, '$DEV/data', '$DEV/cache'), 1), 's')
"
  du -sh "$DEV"
  exit
fi

SECONDS_LEFT=${1:-560}
START=$(date +%s)
left() { echo $((SECONDS_LEFT - ($(date +%s) - START))); }

# Packages: wheels installed, packed trees unpacked, into one folder first on the path.
SITE=/tmp/site
mkdir -p "$SITE"
if compgen -G ".whl/*.whl" >/dev/null; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" .whl/*.whl || exit 1
fi
for tree in .whl/*.tar.xz; do [ -e "$tree" ] && tar -xJf "$tree" -C "$SITE"; done
export PYTHONPATH=$PWD:$SITE${PYTHONPATH:+:$PYTHONPATH}
export KERAS_BACKEND=jax PYTHONUNBUFFERED=1 TF_CPP_MIN_LOG_LEVEL=2
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
$PY -c "import jax, keras, tensorflow as tf; print('jax', jax.__version__, jax.devices(), \
'keras', keras.__version__, 'tf', tf.__version__)" || exit 1

# 1. The plan: every table's hours and memory on this card (rows stop starting after DEADLINE s;
# the timeout adds a minute for the rows then running). `-o install`: the packages are
# installed above, and make must not reach for PyPI.
if [ "${PLAN:-1}" != 0 ]; then
  DEADLINE=$(( $(left) - 120 < 420 ? $(left) - 120 : 420 ))
  if command -v make >/dev/null; then
    plan=(make -o install gpu-plan PY="$PY" DEADLINE="$DEADLINE")
  else  # the same command as the target's
    plan=("$PY" experiments/gpu_plan.py --deadline_seconds="$DEADLINE")
  fi
  timeout $((DEADLINE + 60)) "${plan[@]}" 2>&1 | tee "$DEV/gpu-plan.log"
fi

# 2. The capped rows, resumed where a previous call stopped (seeds the record keeps at this
# configuration are skipped); a resume point every minute so
# the timeout loses at most that. XLA and fixed padding: one compiled step (docs/gpu.md).
[ -f "$DEV/runs.tar" ] && tar -xf "$DEV/runs.tar"
TRAIN_SECONDS=$(( $(left) - 40 ))
if [ "$TRAIN_SECONDS" -gt 60 ]; then
  timeout --signal=TERM --kill-after=20 "$TRAIN_SECONDS" \
    $PY experiments/reproduce.py --table=c-lstms-snli --rows="$ROWS" --scale=low-resource \
    --seeds="$SEEDS" --data_dir="$DEV/data" --cache_dir="$DEV/cache" --runs_dir=runs \
    --skip_recorded --noestimate --override=jit_compile=true --override=padding=fixed \
    --override=checkpoint_every_minutes=1 2>&1 | tee "$DEV/train.log"
fi
tar -cf "$DEV/runs.tar" runs 2>/dev/null

if [ -n "${OUT:-}" ]; then
  cp results/gpu-plan-*.json BENCHMARKS.md "$DEV/gpu-plan.log" "$OUT/" 2>/dev/null
  tar -cJf "$OUT/train-records.tar.xz" results/c-lstms-snli-low-resource.json \
    results/predictions REPRODUCTION.md "$DEV/train.log" "$DEV/runs.tar" 2>/dev/null
fi
echo "used $(( $(date +%s) - START )) s of $SECONDS_LEFT"
