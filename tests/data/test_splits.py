from gcnn_match.data.example import Example
from gcnn_match.data.splits import group_holdout_split, sentence_groups


def _ex(a, b, i, group=None):
    return Example(a=a, b=b, label=0, uid=str(i), group=group)


def test_pairs_sharing_a_sentence_share_a_group():
    examples = [_ex("p1", "h1", 0), _ex("p2", "h1", 1), _ex("p2", "h2", 2), _ex("p3", "h3", 3)]
    groups = sentence_groups(examples)
    assert groups[0] == groups[1] == groups[2]
    assert groups[3] != groups[0]


def test_split_keeps_groups_together_and_is_seeded():
    examples = [_ex(f"premise {i // 3}", f"hyp {i}", i) for i in range(300)]
    train, held = group_holdout_split(examples, 0.1, seed=7)
    assert len(train) + len(held) == 300
    assert 27 <= len(held) <= 33
    held_premises = {e.a for e in held}
    assert not held_premises & {e.a for e in train}
    again_train, again_held = group_holdout_split(examples, 0.1, seed=7)
    assert [e.uid for e in again_held] == [e.uid for e in held]
    _, other = group_holdout_split(examples, 0.1, seed=8)
    assert [e.uid for e in other] != [e.uid for e in held]


def test_case_and_spacing_do_not_separate_a_sentence():
    examples = [_ex("What is  AI?", "x", 0), _ex("what is ai?", "y", 1)]
    groups = sentence_groups(examples)
    assert groups[0] == groups[1]
