"""Markdown of COIN Table 5 (`benchmarks/latency.py`): our CPU latency of COIN and BERT beside
the paper's (`evidence/latency.py`)."""

from gcnn_match.evidence.latency import PAPER


def render_markdown(results, environment, note=""):
    """Table 5 ours beside the paper's, with the BERT / COIN ratio and the hardware."""
    lines = [
        "| model | params (trainable) | paper params | ours s/batch (mean ± std) "
        "| paper s/batch | batches |",
        "|---|---|---|---|---|---|",
    ]
    by_name = {r["model"]: r for r in results}
    for r in results:
        paper_mean, paper_std, paper_params = PAPER.get(r["model"], (None, None, "–"))
        paper = "–" if paper_mean is None else f"{paper_mean:.2f} ± {paper_std:.2f}"
        lines.append(
            f"| {r['model']} | {r['params']:,} | {paper_params} "
            f"| {r['mean']:.4f} ± {r['std']:.4f} | {paper} | {r['batches']} |"
        )
    if "COIN" in by_name and "BERT" in by_name:
        ours = by_name["BERT"]["mean"] / by_name["COIN"]["mean"]
        paper = PAPER["BERT"][0] / PAPER["COIN"][0]
        lines += ["", f"Ratio BERT / COIN: ours {ours:.1f}, paper {paper:.1f}."]
    lines += [
        "",
        "Batches of 8 pairs, length 32 per sentence (BERT: 64 after concatenation), "
        "random weights; COIN's fixed word vectors are not counted (as in the paper). "
        f"Hardware: {environment.get('cpu', '?')} ({environment.get('cpu_count', '?')} "
        f"cores), TensorFlow {environment.get('tensorflow', '?')}, Keras "
        f"{environment.get('keras', '?')}; paper: MacBook Pro, Intel Core i7.",
    ]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"
