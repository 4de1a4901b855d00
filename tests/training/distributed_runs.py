"""Trains test_distribution.py's tiny runs in a fresh process: splitting the CPU into logical
devices must happen before TensorFlow or JAX starts, which inside pytest is too late.

    python distributed_runs.py SPEC.json

SPEC.json holds {"devices": number of logical CPU devices, "config": an ExperimentConfig as a
dict, "data_dir": ..., "cache_dir": ..., "runs": [{"run_dir": ..., "distribution": ...,
"interrupt_in_epoch": optional 1-based epoch at whose start the first attempt crashes; the
run then resumes}], "result": path}. Each run leaves its run directory as run_experiment does;
`result` receives the error message of a later `split_cpu` into another number of devices (it
must refuse: the devices exist by then).
"""

import json
import sys

from gcnn_match.training.distribution import split_cpu


class Interrupt(Exception):
    pass


def _interrupting_fit(real_fit, epoch):
    import keras

    class Crash(keras.callbacks.Callback):
        def on_epoch_begin(self, index, logs=None):
            if index + 1 == epoch:
                raise Interrupt()

    def fit(self, *args, **kwargs):
        kwargs["callbacks"] = list(kwargs.get("callbacks", [])) + [Crash()]
        return real_fit(self, *args, **kwargs)

    return fit


def main(spec_path):
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    split_cpu(spec["devices"])
    import keras

    from gcnn_match.config.experiment import ExperimentConfig
    from gcnn_match.training.loop import run_experiment

    quiet = lambda *_: None  # noqa: E731
    for run in spec["runs"]:
        config = ExperimentConfig.from_dict(spec["config"]).replace(
            distribution=run["distribution"]
        )
        args = (config, run["run_dir"], spec["data_dir"], spec["cache_dir"])
        if run.get("interrupt_in_epoch"):
            real_fit = keras.Model.fit
            keras.Model.fit = _interrupting_fit(real_fit, run["interrupt_in_epoch"])
            try:
                run_experiment(*args, log=quiet)
                raise AssertionError("the interrupted run did not stop")
            except Interrupt:
                pass
            finally:
                keras.Model.fit = real_fit
        run_experiment(*args, log=quiet)
    try:
        split_cpu(spec["devices"] + 1)
        late = None
    except RuntimeError as error:
        late = str(error)
    with open(spec["result"], "w", encoding="utf-8") as handle:
        json.dump({"split_cpu_too_late": late}, handle)


if __name__ == "__main__":
    main(sys.argv[1])
