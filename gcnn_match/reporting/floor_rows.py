"""A table's floor (`gcnn_match.baselines.floor`) as reference rows under the rows of the
rendered markdown table, with a note on what they are.

The rows are filled column by column from the table's header, so they follow whatever columns
`tables.render_markdown` prints: a metric column ("ours: test accuracy", or "test accuracy" in a
table of your own data) gets the floor's value, "row" its name, "data (train/dev/test)" its
example counts, every other column "–".
"""

_NOTE = (
    "- *Reference* rows: computed by this project, not the paper's, on the rows' own training, "
    "held-out and test examples, without a neural network: the floor a row must beat to have "
    "learnt more than the obvious. {floors} Record: `{record}`{command}."
)


def _cell(head, floor, examples):
    """The cell of column `head` in the reference row of `floor`."""
    head = head.strip()
    label = head.removeprefix("ours: ")
    metrics = {key.replace("_", " "): value for key, value in floor["metrics"].items()}
    if head == "row":
        return f"*{floor['row']}*"
    if label in metrics and not head.startswith("paper: "):
        return f"{100 * metrics[label]:.2f}"
    if head == "data (train/dev/test)":
        return "/".join(str(examples.get(role, "–")) for role in ("train", "dev", "test"))
    return "–"


def _describe(floor, selection):
    """One sentence on what `floor` is."""
    name = floor["name"]
    if name == "majority":
        return f"Majority class: always '{floor['label']}', the training part's most frequent."
    if name == "random":
        return f"Random order: the mean of {floor['orders']} seeded shuffles of the candidates."
    if name == "tfidf_cosine":
        return "TF-IDF cosine: candidates ranked by the cosine of their and the question's words."
    return (
        "TF-IDF + LR: logistic regression on word and character n-grams of both texts and their "
        f"overlap (docs/design.md#floors), C = {floor['C']:g} chosen by the {selection}."
    )


def add_reference_rows(markdown, record, record_path, describe=True):
    """`markdown` (a table rendered by `tables.render_markdown`) with the floors of `record`
    as rows under its first table and a note under it; unchanged when `record` is None.
    `describe=False` (a report that describes the floors once): the note names only the
    record and its command."""
    if record is None:
        return markdown
    lines = markdown.split("\n")
    head = next(i for i, line in enumerate(lines) if lines[i + 1].startswith("|---"))
    end = head + 2
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    columns = lines[head].strip().strip("|").split("|")
    examples = record["examples"]
    rows = [
        "| " + " | ".join(_cell(c, floor, examples) for c in columns) + " |"
        for floor in record["floors"]
    ]
    command = f", computed by `{record['command']}`" if record.get("command") else ""
    note = _NOTE.format(
        floors=" ".join(_describe(floor, record["selection"]) for floor in record["floors"]),
        record=record_path,
        command=command,
    )
    if not describe:
        note = f"- Floor record: `{record_path}`{command}."
    after = end + 1 if end < len(lines) and not lines[end] else end
    return "\n".join(lines[:end] + rows + ["", note] + lines[after:])
