"""Held-out selection sets for the low-resource protocol (docs/design.md#scales).

Pairs that share a sentence must stay on the same side of the split: SciTail dev has several
premises per hypothesis, Quora repeats questions, and a random split lets a model select on
sentences it trained on. Groups are the connected components of the "shares a sentence"
relation, computed with a union-find over normalised sentences.
"""

import hashlib

import numpy as np


def _normalise(text):
    return " ".join(text.lower().split())


def sentence_groups(examples):
    """Component id per example: examples sharing any sentence get the same id."""
    parent = {}

    def find(key):
        root = key
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[key] != root:  # path compression
            parent[key], key = root, parent[key]
        return root

    keys = []
    for ex in examples:
        a, b = "s:" + _normalise(ex.a), "s:" + _normalise(ex.b)
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra
        if ex.group is not None:  # an explicit group (question, claim) joins the component
            rg = find("g:" + ex.group)
            ra = find(a)
            if rg != ra:
                parent[rg] = ra
        keys.append(a)
    return [find(k) for k in keys]


def group_holdout_split(examples, fraction, seed):
    """Splits `examples` into (train, held_out) with about `fraction` of them held out.

    Whole groups move together; the assignment depends only on the group contents and `seed`,
    so every model sees the same split.
    """
    if not 0.0 < fraction < 1.0:
        raise ValueError(f"holdout fraction must be in (0, 1), got {fraction}")
    examples = list(examples)
    groups = sentence_groups(examples)
    members = {}
    for index, group in enumerate(groups):
        members.setdefault(group, []).append(index)
    # Order groups by a content hash (stable across runs and Python processes), then shuffle.
    ordered = sorted(members, key=lambda g: hashlib.sha1(g.encode("utf-8")).hexdigest())
    rng = np.random.RandomState(seed)
    rng.shuffle(ordered)
    target = int(round(fraction * len(examples)))
    held = set()
    for group in ordered:
        if len(held) >= target:
            break
        held.update(members[group])
    train = [ex for i, ex in enumerate(examples) if i not in held]
    held_out = [ex for i, ex in enumerate(examples) if i in held]
    return train, held_out


def nested_subset(count, size, seed):
    """Indices (ascending) of the first `size` of a permutation of range(`count`) drawn with
    `seed`: for one `count` and `seed`, a smaller subset lies inside every larger one, whatever
    else varies (the model, its seed). `size` at least `count` keeps all of them."""
    if size < 1:
        raise ValueError(f"a subset needs at least one example, got size {size}")
    order = np.random.RandomState(seed).permutation(count)
    return np.sort(order[:size]).tolist()
