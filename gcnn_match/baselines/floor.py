"""The floor of a table: what its rows must beat to have learnt more than the obvious
(docs/design.md#floors).

Computed on exactly the examples the table's rows read (`split_examples`; with `train_pairs`,
the nested training subset of a learning curve's size), without a neural network,
deterministically:

- classification: the majority class of the training part; TF-IDF + logistic regression on
  `PairFeatures`, its C chosen on the held-out (dev) part by the rows' selection metric;
- ranking: candidates in random order (the mean of `RANDOM_ORDERS` seeded shuffles), ranked by
  the TF-IDF cosine of candidate and question, and by the TF-IDF + LR probability of the
  positive label, its C chosen as above.

`compute` returns the record (results/floor-<table>-<scale>.json) and the per-example
predictions of the evaluated splits (results/predictions/floor-<table>-<scale>.csv.gz).
"""

import csv
import gzip
import io
import json
import pathlib
import time

import numpy as np
import sklearn
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from gcnn_match.data import registry
from gcnn_match.data.experiment_data import apply_scale, train_pairs_subset
from gcnn_match.data.splits import group_holdout_split
from gcnn_match.experiments import registry as experiments
from gcnn_match.files import write_atomic
from gcnn_match.training.metrics import classification_metrics, is_headline_metric, ranking_metrics

C_GRID = (0.1, 0.3, 1.0, 3.0, 10.0)
RANDOM_ORDERS = 100
FEATURES = (
    "TF-IDF (sublinear tf; vocabulary and idf from the training part's sentences) of "
    "lower-cased word 1-2-grams and of character 1-4-grams within word boundaries, each of "
    "sentence a, of sentence b and of their element-wise product (the n-grams both share); "
    "and six overlap features: the cosine of the two word vectors and of the two character "
    "vectors, the Jaccard index of the two word sets, the share of a's words found in b and "
    "of b's found in a, and log((1 + words of a) / (1 + words of b))"
)
# How the tables name each floor.
ROWS = {
    "majority": "reference: majority class",
    "random": "reference: random order",
    "tfidf_cosine": "reference: TF-IDF cosine",
    "tfidf_lr": "reference: TF-IDF + LR",
}


# The fitting library: floors it computed are reused only by the same version.
LIBRARY = f"scikit-learn {sklearn.__version__}"

# What decides the examples of each role and how a floor selects its C.
SPLIT_FIELDS = (
    "dataset",
    "task",
    "split_variant",
    "train_split",
    "dev_split",
    "test_split",
    "extra_eval_splits",
    "holdout_fraction",
    "split_seed",
    "train_pairs",
    "max_train_examples",
    "max_eval_examples",
    "select_metric",
)


def record_path(results_dir, key, scale):
    """The floor record of a table (or a dataset of your own) `key` at `scale`."""
    return pathlib.Path(results_dir) / f"floor-{key}-{scale}.json"


def predictions_path(results_dir, key, scale):
    return pathlib.Path(results_dir) / "predictions" / f"floor-{key}-{scale}.csv.gz"


def split_signature(config):
    return tuple(getattr(config, field) for field in SPLIT_FIELDS)


def split_fields(config):
    """The split fields of `config` by name, as a JSON record holds them."""
    return json.loads(json.dumps(dict(zip(SPLIT_FIELDS, split_signature(config)))))


def shared_config(scaled, what):
    """The first of the scaled configs `scaled` (of a table, or of a curve's rows at one size:
    `what`), whose splits they all read; raises when they read different ones (no single floor
    fits them)."""
    differing = [c.name for c in scaled if split_signature(c) != split_signature(scaled[0])]
    if differing:
        raise ValueError(
            f"{what}: {differing[0]} reads other splits than {scaled[0].name}; no single floor"
        )
    return scaled[0]


def table_config(table, scale):
    """The scaled config of the registered rows of `table` (`shared_config`)."""
    scaled = [apply_scale(c.replace(scale=scale)) for c in experiments.select(table=table)]
    if not scaled:
        raise ValueError(
            f"no registered table {table!r} (known: {', '.join(experiments.tables())})"
        )
    return shared_config(scaled, table)


def split_examples(config, data_dir):
    """The examples of each role ("train", "dev", "test", then the extra evaluation splits) of
    a scaled `config`, as `experiment_data.prepare_data` gives them to its rows: the held-out
    part split off by `group_holdout_split` with the config's fraction and seed, then with
    `train_pairs` the training part's nested subset (`train_pairs_subset`, a learning curve's
    size; the held-out part and test stay whole).

    Refuses the other example limits (the smoke scale, --max_*_examples): a floor is computed
    on whole splits."""
    if config.scale == "smoke" or config.max_train_examples or config.max_eval_examples:
        raise ValueError(
            f"{config.name}: a floor is computed on whole splits (the low-resource and full "
            "scales, a training subset of train_pairs), not with example limits"
        )

    def read(split):
        return list(registry.read_split(config.dataset, split, data_dir))

    train = read(config.train_split)
    if config.dev_split == "holdout":
        held = group_holdout_split(train, config.holdout_fraction, config.split_seed)
        roles = dict(zip(("train", "dev"), held))
    else:
        roles = {"train": train, "dev": read(config.dev_split)}
    if config.train_pairs is not None:
        roles["train"] = [
            roles["train"][i] for i in train_pairs_subset(config, len(roles["train"]))
        ]
    if config.test_split is not None:
        roles["test"] = read(config.test_split)
    for split in config.extra_eval_splits:
        roles[split] = read(split)
    return roles


class PairFeatures:
    """The TF-IDF and overlap features of sentence pairs (`FEATURES`), fitted on the
    training part only."""

    def __init__(self):
        self.word = TfidfVectorizer(
            token_pattern=r"(?u)\b\w+\b", ngram_range=(1, 2), sublinear_tf=True
        )
        self.char = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 4), sublinear_tf=True)

    def fit(self, examples):
        texts = [ex.a for ex in examples] + [ex.b for ex in examples]
        self.word.fit(texts)
        self.char.fit(texts)
        return self

    @staticmethod
    def _sides(vectorizer, examples):
        a = vectorizer.transform([ex.a for ex in examples])
        return a, vectorizer.transform([ex.b for ex in examples])

    def cosine(self, examples):
        """Cosine of the word vectors of a and b (TF-IDF rows have unit length)."""
        a, b = self._sides(self.word, examples)
        return np.asarray(a.multiply(b).sum(axis=1)).ravel()

    def transform(self, examples):
        blocks, dense = [], []
        for vectorizer in (self.word, self.char):
            a, b = self._sides(vectorizer, examples)
            shared = a.multiply(b).tocsr()
            blocks += [a, b, shared]
            dense.append(np.asarray(shared.sum(axis=1)).ravel())
        analyzer = self.word.build_analyzer()
        words = [
            [set(g for g in analyzer(text) if " " not in g) for text in (ex.a, ex.b)]
            for ex in examples
        ]
        dense += list(np.array([_overlap(a, b) for a, b in words]).reshape(-1, 4).T)
        return sparse.hstack(blocks + [sparse.csr_matrix(np.column_stack(dense))], format="csr")


def _overlap(a, b):
    """Jaccard, share of a in b, share of b in a, log length ratio of two word sets."""
    shared = len(a & b)
    return (
        shared / max(len(a | b), 1),
        shared / max(len(a), 1),
        shared / max(len(b), 1),
        np.log((1 + len(a)) / (1 + len(b))),
    )


def _mean(dicts):
    return {key: float(np.mean([d[key] for d in dicts])) for key in dicts[0]}


class _Task:
    """The floors of one task on `roles` (role -> examples); `outputs` map each evaluated
    role to what the task's metrics read (probabilities, scores)."""

    def __init__(self, roles, dataset, select_metric):
        self.roles, self.dataset, self.select_metric = roles, dataset, select_metric
        self.evaluated = [role for role in roles if role != "train"]
        self.labels = {
            role: np.array([-1 if ex.label is None else ex.label for ex in examples])
            for role, examples in roles.items()
        }
        self.features = PairFeatures().fit(roles["train"])
        self.inputs = {role: self.features.transform(exs) for role, exs in roles.items()}

    def score(self, role, outputs):
        raise NotImplementedError

    def predict(self, model, role):
        raise NotImplementedError

    def metrics(self, outputs):
        values = {}
        for role in self.evaluated:
            found = self.score(role, outputs[role])
            values.update({f"{role}_{k}": v for k, v in found.items()})
        return {k: v for k, v in values.items() if is_headline_metric(k)}

    def tfidf_lr(self):
        """Logistic regression on the features, C of the best held-out selection metric (the
        smaller C on a tie): (floor, outputs)."""
        held_out, models = {}, {}
        for c in C_GRID:
            models[c] = LogisticRegression(C=c, max_iter=2000)
            models[c].fit(self.inputs["train"], self.labels["train"])
            held_out[c] = self.score("dev", self.predict(models[c], "dev"))[self.select_metric]
        best = max(C_GRID, key=lambda c: (held_out[c], -c))
        outputs = {role: self.predict(models[best], role) for role in self.evaluated}
        floor = {
            "name": "tfidf_lr",
            "C": best,
            f"held_out_{self.select_metric}_by_C": {f"{c:g}": held_out[c] for c in C_GRID},
            "metrics": self.metrics(outputs),
        }
        return floor, outputs

    def _class_probabilities(self, model, role):
        """(N, classes); a class the training part lacks gets 0."""
        out = np.zeros((len(self.roles[role]), len(self.dataset.labels)))
        out[:, model.classes_] = model.predict_proba(self.inputs[role])
        return out


class _Classification(_Task):
    def score(self, role, outputs):
        positive = self.dataset.positive_label if len(self.dataset.labels) == 2 else None
        return classification_metrics(self.labels[role], outputs, positive)

    def predict(self, model, role):
        return self._class_probabilities(model, role)

    def floors(self):
        """(floors, per-example prediction columns): majority class, TF-IDF + LR."""
        names = self.dataset.labels
        counts = np.bincount(self.labels["train"], minlength=len(names))
        majority = int(np.argmax(counts))  # a tie goes to the first label
        constant = {
            role: np.eye(len(names))[np.full(len(self.roles[role]), majority)]
            for role in self.evaluated
        }
        lr, lr_outputs = self.tfidf_lr()
        floors = [
            {"name": "majority", "label": names[majority], "metrics": self.metrics(constant)},
            lr,
        ]
        columns = {
            name: {role: [names[i] for i in np.argmax(out[role], axis=1)] for role in out}
            for name, out in (("majority", constant), ("tfidf_lr", lr_outputs))
        }
        return floors, columns


class _Ranking(_Task):
    def score(self, role, outputs):
        if not (self.labels[role] >= 0).any():
            return {}
        groups = [ex.group for ex in self.roles[role]]
        return ranking_metrics(groups, outputs, self.labels[role])

    def predict(self, model, role):
        return self._class_probabilities(model, role)[:, self.dataset.positive_label]

    def floors(self):
        """(floors, per-example score columns): random order, TF-IDF cosine, TF-IDF + LR."""
        shuffles = [
            self.metrics(
                {
                    role: np.random.RandomState(seed).random_sample(len(self.roles[role]))
                    for role in self.evaluated
                }
            )
            for seed in range(RANDOM_ORDERS)
        ]
        cosine = {role: self.features.cosine(self.roles[role]) for role in self.evaluated}
        lr, lr_outputs = self.tfidf_lr()
        floors = [
            {"name": "random", "orders": RANDOM_ORDERS, "metrics": _mean(shuffles)},
            {"name": "tfidf_cosine", "metrics": self.metrics(cosine)},
            lr,
        ]
        columns = {
            name: {role: [f"{s:.6g}" for s in out[role]] for role in out}
            for name, out in (("tfidf_cosine", cosine), ("tfidf_lr", lr_outputs))
        }
        return floors, columns


_TASKS = {"classification": _Classification, "ranking": _Ranking}


def floors_of(roles, dataset, task, select_metric):
    """The floors of `task` on `roles` (role -> examples; "train" fits, "dev" selects, every
    other role is evaluated too) of `dataset` (a DatasetSpec): (floors, per-example columns:
    floor name -> role -> predicted label names or scores)."""
    floors, columns = _TASKS[task](roles, dataset, select_metric).floors()
    for floor in floors:
        floor["row"] = ROWS[floor["name"]]
    return floors, columns


def _sources(config, roles):
    """The split each role's examples come from, in words."""
    sources = {role: role for role in roles}
    sources.update(train=config.train_split, dev=config.dev_split, test=config.test_split)
    if config.dev_split == "holdout":
        sources["train"] = (
            f"{config.train_split} minus {config.holdout_fraction:.0%} held out "
            f"(grouped by shared sentences, seed {config.split_seed})"
        )
        sources["dev"] = f"the held-out part of {config.train_split}"
    if config.train_pairs is not None:
        sources["train"] += (
            f", its nested subset of {len(roles['train'])} pairs (train_pairs="
            f"{config.train_pairs}, split seed {config.split_seed})"
        )
    return {role: sources[role] for role in roles}


def compute(config, data_dir):
    """The floors of the splits a scaled `config` reads: (record, gzipped CSV of the
    per-example predictions)."""
    start = time.perf_counter()
    roles = split_examples(config, data_dir)
    dataset = registry.get_dataset(config.dataset)
    floors, columns = floors_of(roles, dataset, config.task, config.select_metric)
    record = {
        "dataset": config.dataset,
        "scale": config.scale,
        "task": config.task,
        "splits": _sources(config, roles),
        "examples": {role: len(examples) for role, examples in roles.items()},
        "features": FEATURES,
        "C_grid": list(C_GRID),
        "selection": f"held-out (dev) {config.select_metric}",
        "floors": floors,
        "library": LIBRARY,
    }
    record["seconds"] = time.perf_counter() - start
    return record, predictions_csv(roles, dataset, columns, config.task == "ranking")


def predictions_csv(roles, dataset, columns, ranking):
    """Gzipped CSV of the evaluated roles: split, uid, gold label, (ranking: question,) one
    column per floor with per-example outputs; byte for byte the same for the same floors."""
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["split", "uid", "gold"] + ["question"] * ranking + list(columns))
    for role in [r for r in roles if r != "train"]:
        for i, ex in enumerate(roles[role]):
            gold = "" if ex.label is None else dataset.labels[ex.label]
            outputs = [column[role][i] for column in columns.values()]
            writer.writerow([role, ex.uid, gold] + [ex.group] * ranking + outputs)
    return gzip.compress(table.getvalue().encode("utf-8"), mtime=0)


def write(results_dir, key, record, predictions, command):
    """Writes the floor `record` of table (or dataset of your own) `key` and its
    `predictions` under `results_dir`, naming the `command` that computed them; returns the
    record as written."""
    path = predictions_path(results_dir, key, record["scale"])
    write_atomic(path, predictions)
    record = dict(record, key=key, command=command, predictions=str(path))
    text = json.dumps(record, indent=2, sort_keys=True) + "\n"
    write_atomic(record_path(results_dir, key, record["scale"]), text.encode("utf-8"))
    return record


def check_examples(record, rows):
    """Raises when the floor's example counts differ from those of a table's rows (their
    results/<table>-<scale>.json records), i.e. when it was not computed on their splits."""
    for row in rows:
        counts = row.get("examples")
        if counts and counts != record["examples"]:
            raise ValueError(
                f"{row['name']} read {counts} examples, the floor {record['examples']}: "
                "not the same splits"
            )
