"""The flags that evaluate.py and predict.py share: the trained run or export they score with,
and how a pairs file of `--input` is read (its format, text columns, header line, raw text)."""

from absl import flags

from gcnn_match.data.own_data import HEADERS
from gcnn_match.data.own_data_reader import FORMATS, parse_column


def define_flags(input_help, export_help, flag_values=flags.FLAGS):
    """Defines --run_dir, --export_dir, --input, --format, --a, --b, --header and --raw_text.

    A tool adopts them with `flags.adopt_module_key_flags(_pair_input_flags)`, so that its
    `--help` lists them beside its own.

    Args:
        input_help: the help of --input: what the file holds for this tool.
        export_help: the help of --export_dir: what this tool does with the folder.
        flag_values: the `FlagValues` to define them in.
    """
    define = dict(flag_values=flag_values)
    flags.DEFINE_string("run_dir", None, "A trained run directory.", **define)
    flags.DEFINE_string("export_dir", None, export_help, **define)
    flags.DEFINE_string("input", None, input_help, **define)
    flags.DEFINE_enum("format", None, FORMATS, "Input format (default: see above).", **define)
    flags.DEFINE_string(
        "a",
        None,
        "Column (0-based index, or name in the header / jsonl key) of the first text.",
        **define,
    )
    flags.DEFINE_string("b", None, "Column of the second text.", **define)
    flags.DEFINE_enum(
        "header",
        "auto",
        list(HEADERS),
        "Whether the tsv/csv input starts with a header line. auto: when it holds the column "
        "names or its label field is not one of the run's labels.",
        **define,
    )
    flags.DEFINE_bool(
        "raw_text",
        True,
        "The input is text as typed: rewrite it into the tokenization of the run's training "
        "text (docs/own-data.md, 'Raw text'). --noraw_text reads input already tokenized that "
        "way.",
        **define,
    )


def given_columns(columns=("a", "b"), flag_values=flags.FLAGS):
    """The reading options of `TrainedModel.read_file` that the flags give: --format and the
    columns among `columns` that are set (a 0-based index or a name).

    Args:
        columns: the names of the column flags to read (evaluate.py adds label and group).
        flag_values: the parsed `FlagValues`.
    """
    given = {"fmt": flag_values.format}
    given.update(
        {key: parse_column(flag_values[key].value) for key in columns if flag_values[key].value}
    )
    return given
