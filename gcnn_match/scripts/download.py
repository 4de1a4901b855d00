"""Fetch or check the datasets of the registry.

    python experiments/download.py --dataset=quora --data_dir=./data
    python experiments/download.py --dataset=all --data_dir=../shared/data --verify_only

Prints what was found, fetched, or what to place where. Exits non-zero when a requested split
is missing or a checksum does not match.
"""

from absl import flags

from gcnn_match import cli
from gcnn_match.data import download, registry

FLAGS = flags.FLAGS
flags.DEFINE_string("dataset", "all", f"one of {', '.join(registry.DATASETS)}, or 'all'.")
flags.DEFINE_string("data_dir", "./data", "Root holding {dataset}/... files.")
flags.DEFINE_list("splits", None, "Splits to fetch or check (default: all of each dataset).")
flags.DEFINE_bool(
    "verify_only",
    False,
    "Do not download: report which splits are present and check their checksums.",
)


def _run(name: str) -> bool:
    """Handle one dataset; True when everything requested is present and verified."""
    spec = registry.get_dataset(name)
    splits = [s for s in FLAGS.splits if s in spec.splits] if FLAGS.splits else list(spec.splits)
    if not splits:
        print(f"{name}: has none of the requested splits (its splits: {', '.join(spec.splits)})")
        return True
    ok = True
    if FLAGS.verify_only:
        present = registry.available_splits(name, FLAGS.data_dir)
        for split in splits:
            if split not in present:
                print(registry.missing_message(name, split, FLAGS.data_dir))
                ok = False
    else:
        try:
            download.ensure_dataset(name, FLAGS.data_dir, splits)
        except registry.MissingDataError as err:
            print(err)
            ok = False
    for check in download.verify(name, FLAGS.data_dir):
        print(f"{name}: {check.describe()}")
        ok = ok and check.ok is not False
    return ok


def main(argv):
    del argv
    names = list(registry.DATASETS) if FLAGS.dataset == "all" else [FLAGS.dataset]
    results = {name: _run(name) for name in names}
    failed = [name for name, ok in results.items() if not ok]
    print(
        f"\n{len(names) - len(failed)}/{len(names)} datasets complete"
        + (f"; incomplete: {', '.join(failed)}" if failed else "")
    )
    return 1 if failed else 0


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
