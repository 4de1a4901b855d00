"""Runs a measurement of one config (`bench_experiment` unless the request names another) in a
fresh Python process with a chosen environment.

Settings read once when TensorFlow or Keras is imported (TF_ENABLE_ONEDNN_OPTS,
KERAS_BACKEND) can only be compared across processes, and a fresh process per row keeps one
row's memory and compiled kernels out of the next one's measurements. The parent writes a
request (the resolved config and the measurement arguments) to a JSON file and runs

    python -m gcnn_match.benchmarks.worker REQUEST.json RESULT.json

which writes the measurements and its environment record to RESULT.json.
"""

import importlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import traceback

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.files import write_atomic

# "module:function" measuring one config; it returns a dict with "backend".
BENCH = "gcnn_match.benchmarks.experiment_cost:bench_experiment"


class WorkerError(RuntimeError):
    """A worker process failed; the message ends with the last line it wrote to stderr, which
    `main` makes its error's `error_line`."""


def error_line(error):
    """The line naming `error`: "Type: first line of its message". A message can span lines
    (Keras appends the arguments of the failing call), and its last line names neither the
    error nor its cause."""
    lines = str(error).strip().splitlines()
    return type(error).__name__ + (f": {lines[0]}" if lines else "")


def run_worker(config, env=None, timeout=None, function=BENCH, **arguments):
    """`function(config, **arguments)` ("module:function", `bench_experiment` by default) in a
    subprocess whose environment is this one updated with `env`; returns its result dict (with
    "environment")."""
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        request, result = pathlib.Path(folder, "request.json"), pathlib.Path(folder, "result.json")
        request.write_text(
            json.dumps({"config": config.to_dict(), "function": function, "arguments": arguments}),
            "utf-8",
        )
        process = subprocess.run(
            [sys.executable, "-m", "gcnn_match.benchmarks.worker", str(request), str(result)],
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if process.returncode != 0:
            lines = [line for line in process.stderr.strip().splitlines() if line.strip()]
            raise WorkerError(
                f"{config.name} with {env or 'the default environment'}: "
                f"{lines[-1] if lines else f'exit code {process.returncode}'}"
            )
        return json.loads(result.read_text("utf-8"))


def main(argv):
    request_path, result_path = argv[1:3]
    request = json.loads(pathlib.Path(request_path).read_text("utf-8"))
    # Imported here: the process' environment decides the backend and TF's kernels.
    from gcnn_match.training.run_dir import environment_record

    module, name = request.get("function", BENCH).split(":")
    measure = getattr(importlib.import_module(module), name)
    config = ExperimentConfig.from_dict(request["config"])
    try:
        result = measure(config, **request["arguments"])
    except Exception as error:  # noqa: BLE001 - reported to the parent, whatever it is
        traceback.print_exc()
        # The parent reports the last line of stderr: the error's name and first line.
        sys.exit(error_line(error))
    result["environment"] = environment_record(request["arguments"].get("data_dir"))
    if result["backend"] == "jax":
        import jax

        result["environment"]["jax"] = jax.__version__
    write_atomic(result_path, json.dumps(result, indent=2).encode("utf-8"))


if __name__ == "__main__":
    main(sys.argv)
