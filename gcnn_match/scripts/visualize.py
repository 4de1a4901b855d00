"""Per-paper figures of trained runs, written as PNG into `<run_dir>/figures/`.

    # ATTCONV Figure 6(a): attention weights and attentive-conv features of one pair
    python experiments/visualize.py attconv --run_dir=runs/attconv/snli/attconv_light/<run>
    # ATTCONV Figure 5: accuracy by text-length group, light vs Bi-CNN (+ their difference)
    python experiments/visualize.py length_groups --run_dir=<light run> --compare=<bi-cnn run>
    # C-LSTMs Figure 3: one neuron of the top grid (default: the most active one)
    python experiments/visualize.py clstm --run_dir=runs/clstm/snli/tc_lstms/<run> --neuron=3
    # COIN Figure 4: cross-attention of the first and last interaction blocks
    python experiments/visualize.py coin --run_dir=runs/coin/quora/coin_ours/<run>
    # everything drawable under a folder (what `make figures` runs)
    python experiments/visualize.py --runs_dir=runs --all

The pair: `--a=... --b=...` (text), or `--index=N` (0-based) into `--split` (default: the
run's test split), or by default the paper's own example when the run is on the dataset of
the paper's figure (else test example 0). Data is read from `--data_dir`, by default the
folder the run was trained from.
"""

from absl import app, flags

from gcnn_match import cli
from gcnn_match.reporting import run_figures
from gcnn_match.reporting.length_groups import LENGTH_OF

FLAGS = flags.FLAGS
flags.DEFINE_string("run_dir", None, "The trained run to draw.")
flags.DEFINE_bool("all", False, "Draw every figure possible for the runs under --runs_dir.")
flags.DEFINE_string("runs_dir", "runs", "Searched recursively with --all.")
flags.DEFINE_string("data_dir", None, "Dataset folder (default: the run's own).")
flags.DEFINE_string("a", None, "Text a of the pair (premise / question 1 / context t_y).")
flags.DEFINE_string("b", None, "Text b of the pair (hypothesis / question 2 / t_x).")
flags.DEFINE_integer("index", None, "0-based example number in --split instead of a text.")
flags.DEFINE_string(
    "split",
    None,
    "Dataset split for --index (default: the run's test split);"
    " for length_groups a predictions role (default test).",
)
flags.DEFINE_list(
    "filters",
    None,
    "attconv: filter indices to show (default: the two whose max-pooled value stands out most).",
)
flags.DEFINE_integer("neuron", None, "clstm: 0-based neuron (default: the most active one).")
flags.DEFINE_list(
    "compare",
    [],
    "length_groups: other runs on the same split; the first one "
    "is subtracted from --run_dir's curve.",
)
flags.DEFINE_integer("groups", 10, "length_groups: number of equal-size groups (paper: 10).")
flags.DEFINE_enum(
    "length_of",
    None,
    list(LENGTH_OF),
    "length_groups: tokens of a + b, a or b"
    " (default: a for single-text data such as Yelp, else a + b).",
)


def _text():
    if (FLAGS.a is None) != (FLAGS.b is None):
        raise app.UsageError("give both --a and --b (or neither)")
    if FLAGS.a is not None and FLAGS.index is not None:
        raise app.UsageError("give either a text (--a, --b) or --index, not both")
    return None if FLAGS.a is None else (FLAGS.a, FLAGS.b)


def _draw(figure):
    pair = dict(data_dir=FLAGS.data_dir, index=FLAGS.index, split=FLAGS.split, text=_text())
    if figure == "attconv":
        filters = None if FLAGS.filters is None else [int(k) for k in FLAGS.filters]
        return run_figures.attconv_figure(FLAGS.run_dir, filters=filters, **pair)
    if figure == "clstm":
        return run_figures.clstm_figure(FLAGS.run_dir, neuron=FLAGS.neuron, **pair)
    if figure == "coin":
        return run_figures.coin_figure(FLAGS.run_dir, **pair)
    path, curves = run_figures.length_group_figure(
        [FLAGS.run_dir, *FLAGS.compare],
        FLAGS.data_dir,
        FLAGS.split or "test",
        FLAGS.length_of,
        FLAGS.groups,
    )
    for name, accuracies in curves.items():
        print(f"{name}: " + " ".join(f"{a:.3f}" for a in accuracies))
    return path


def main(argv):
    if FLAGS.all:
        if len(argv) > 1:
            raise app.UsageError("--all takes no figure name")
        run_figures.all_figures(FLAGS.runs_dir, FLAGS.data_dir)
        return
    if len(argv) != 2 or argv[1] not in run_figures.FIGURES:
        raise app.UsageError(f"name one figure: {' | '.join(run_figures.FIGURES)} (or --all)")
    if not FLAGS.run_dir:
        raise app.UsageError("give --run_dir")
    try:
        print(_draw(argv[1]))
    except (run_figures.SkipFigure, FileNotFoundError, IndexError, ValueError) as reason:
        # Bad input (wrong run, missing file, index out of range): the message says the fix.
        raise SystemExit(f"cannot draw {argv[1]}: {reason}") from None


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
