"""The environment record a benchmark report is rendered with in tests: placeholder versions,
so a test reads the tables, not the machine."""

ENVIRONMENT = {
    "cpu": "cpu",
    "cpu_count": 2,
    "platform": "linux",
    "tensorflow": "x",
    "keras": "y",
    "numpy": "z",
    "python": "3",
    "jax": "0.10",
}
