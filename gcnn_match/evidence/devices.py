"""What kind of device a record's measurements ran on: the one rule that every time claim's
evidence (bench, latency and epoch records) is sorted by."""

# Words of a device's name that only accelerators carry.
_ACCELERATOR_WORDS = ("NVIDIA", "GPU")


def device_class(environment):
    """ "GPU" for a record whose environment saw a GPU (its `gpus`, or an accelerator's name as
    its `device`), else "CPU"."""
    name = environment.get("device") or ""
    if environment.get("gpus") or any(word in name for word in _ACCELERATOR_WORDS):
        return "GPU"
    return "CPU"
