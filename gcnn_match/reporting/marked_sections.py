"""Marked sections of a Markdown document: the blocks the scripts render into README-like files
(REPRODUCTION.md, BENCHMARKS.md) between `<!-- begin KEY -->` and `<!-- end KEY -->`."""

import re

from gcnn_match.files import write_atomic


def update_section(path, key, markdown, heading="# Reproduction results"):
    """Replaces the block between `<!-- begin KEY -->` and `<!-- end KEY -->` (or appends)."""
    begin, end = f"<!-- begin {key} -->", f"<!-- end {key} -->"
    text = path.read_text("utf-8") if path.exists() else heading + "\n"
    block = f"{begin}\n{markdown}{end}"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    text = (
        pattern.sub(lambda _: block, text)
        if pattern.search(text)
        else text.rstrip("\n") + "\n\n" + block + "\n"
    )
    write_atomic(path, text.encode("utf-8"))
