"""A trained model as a TensorFlow SavedModel: serving signatures that load without gcnn_match.

`write_saved_model(trained, directory)` writes a SavedModel that `tf.saved_model.load`,
`keras.layers.TFSMLayer`, TF Serving and `saved_model_cli` read. Its signatures:

- "serving_default": raw text pairs, inputs `a` and `b` (tf.string, one text per pair), when
  the run's tokenization runs in the graph (`graph_tokenization`): the whitespace or the
  character tokenizer, lower-casing, the cut-offs and character ids, as `PairEncoder` does
  them. Otherwise "serving_default" is the "token_ids" signature.
- "token_ids": the model's id inputs ("a_ids", "b_ids", and "a_chars"/"b_chars", "a_pos"/"b_pos",
  "a_segments" where the model reads them; int32, 0 = padding), for tokens made outside.

The object also has `serve`, "serving_default" called with one dict of its inputs (the
default endpoint of `keras.layers.TFSMLayer`). Outputs: a classification run gives
"probabilities" (pairs, classes) float32, "predicted" (pairs,) and "class_names" (classes,)
strings; a ranking run gives "scores" (pairs,) float32.
Batches are padded as `predict.py` pads them (`ExperimentConfig.padding`, `bucket_width`).
"""

import functools
import sys

import tensorflow as tf

from gcnn_match.data import pos, raw_text
from gcnn_match.data.vocab import PAD_ID, UNK_ID
from gcnn_match.training import raw_input

GRAPH_TOKENIZERS = ("whitespace", "chars")
# What the Python tokenizers of `gcnn_match.data.tokenizers` call, for a client's own code.
_PYTHON_TOKENIZERS = {
    "treebank": "nltk.tokenize.NLTKWordTokenizer().tokenize(text), on the whole text",
    "tweet": "nltk.tokenize.TweetTokenizer().tokenize(text)",
}


@functools.cache
def _python_whitespace():
    """An RE2 class of the characters `str.isspace` accepts, which `str.split` splits at."""
    spaces = (c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
    return "[" + "".join(f"\\x{{{ord(c):x}}}" for c in spaces) + "]"


def graph_tokenization(encoder):
    """Why the tokenization of `encoder` (a `PairEncoder`) cannot run in the graph, or None
    when it can."""
    if encoder.policy.tokenizer not in GRAPH_TOKENIZERS:
        return f"the {encoder.policy.tokenizer!r} tokenizer (NLTK) runs in Python"
    if encoder.pos:
        return "the POS tags come from the run's tagger, which runs in Python"
    if encoder.segments:
        return "the sentence segments of 'a' come with the data (FEVER contexts)"
    return None


def _lookup_table(vocab):
    """Token -> id of `vocab` (a `Vocabulary`), `UNK_ID` for any other token."""
    initializer = tf.lookup.KeyValueTensorInitializer(
        tf.constant(vocab.tokens), tf.range(len(vocab), dtype=tf.int32)
    )
    return tf.lookup.StaticHashTable(initializer, default_value=UNK_ID)


class TextToIds(tf.Module):
    """The in-graph twin of `PairEncoder` for raw text: tokens, cut-off and ids of one side.

    Args:
        encoder: the run's `PairEncoder`, whose tokenization runs in the graph
            (`graph_tokenization` gives None).
        rewrite: the tokenization name of the run's training text (`raw_text.TOKENIZATIONS`):
            texts as typed are first rewritten into it (`raw_text.normalize_tf`), as
            predict.py rewrites them; None (or a name without rewrite) reads them as given.
    """

    def __init__(self, encoder, rewrite=None):
        super().__init__(name="text_to_ids")
        self._rewrite = rewrite if rewrite and raw_text.rewrites(rewrite) else None
        self._chars_tokenizer = encoder.policy.tokenizer == "chars"
        self._lowercase = encoder.policy.lowercase
        self._max_chars = encoder.max_chars
        self._words = _lookup_table(encoder.vocab)
        self._chars = None if encoder.char_vocab is None else _lookup_table(encoder.char_vocab)

    def text_to_ids(self, texts, max_len):
        """The id features of one side of the pairs, ragged: `texts` (pairs,) split as
        `TextPolicy.tokenize` splits them (`str.split`, or one token per non-space character),
        lower-cased when the run is, cut to `max_len` tokens and looked up in the vocabulary;
        with a character vocabulary also "chars", the ids of each token's first `max_chars`
        characters.

        Returns:
            {"ids": (pairs, tokens)} and, with characters, "chars": (pairs, tokens, chars).
        """
        if self._rewrite is not None:
            texts = raw_text.normalize_tf(texts, self._rewrite)
        if self._chars_tokenizer:
            texts = tf.strings.regex_replace(texts, _python_whitespace(), "")
            tokens = tf.strings.unicode_split(texts, "UTF-8")
        else:
            tokens = tf.strings.split(tf.strings.regex_replace(texts, _python_whitespace(), " "))
        if self._lowercase:
            tokens = tf.ragged.map_flat_values(tf.strings.lower, tokens, encoding="utf-8")
        tokens = tokens[:, :max_len]
        features = {"ids": tf.ragged.map_flat_values(self._words.lookup, tokens)}
        if self._chars is not None:
            chars = tf.strings.unicode_split(tokens, "UTF-8")[:, :, : self._max_chars]
            features["chars"] = tf.ragged.map_flat_values(self._chars.lookup, chars)
        return features


class PairServing(tf.Module):
    """The model, its text step and the signatures' functions, as one tf.Module.

    Args:
        model: the trained Keras model.
        encoder: the run's `PairEncoder`.
        labels: class names, index = class id.
        config: the run's ExperimentConfig (task, padding, bucket width).
        rewrite: the tokenization name raw text is rewritten into first (`TextToIds`).
    """

    def __init__(self, model, encoder, labels, config, rewrite=None):
        super().__init__(name="pair_serving")
        self.model = model
        # Listed as well: variables a layer keeps in nested containers (the coupled LSTMs'
        # blocks of lists of dicts) are not reached by TensorFlow's tracking otherwise.
        self.model_variables = list(model.variables)
        self._encoder = encoder
        self._ranking = config.task == "ranking"
        self._fixed = config.padding == "fixed"
        self._bucket_width = config.bucket_width
        self._class_names = tf.constant(list(labels))
        in_graph = graph_tokenization(encoder) is None
        self.text = TextToIds(encoder, rewrite) if in_graph else None

    def _fit(self, dense, cap):
        """`dense` (pairs, length, ...) cut to `cap` tokens and padded with 0 to what
        `batches_dataset` pads a batch to: the cut-off (fixed padding), else the longest
        text rounded up to a multiple of the bucket width, never beyond the cut-off; at least
        one slot."""
        dense = dense[:, :cap]
        width = tf.shape(dense)[1]
        target = cap
        if not self._fixed:
            rounded = (width + self._bucket_width - 1) // self._bucket_width * self._bucket_width
            target = tf.minimum(rounded, cap)
        target = tf.maximum(target, 1)
        padding = [[0, 0], [0, target - width]] + [[0, 0]] * (dense.shape.rank - 2)
        return tf.pad(dense, padding, constant_values=PAD_ID)

    def _outputs(self, features):
        caps = {"a": self._encoder.max_len_a, "b": self._encoder.max_len_b}
        features = {key: self._fit(value, caps[key[0]]) for key, value in features.items()}
        outputs = self.model(features, training=False)
        if self._ranking:
            return {"scores": outputs[:, 0]}
        probabilities = tf.nn.softmax(outputs, axis=-1)
        return {
            "probabilities": probabilities,
            "predicted": tf.gather(self._class_names, tf.argmax(probabilities, axis=-1)),
            "class_names": self._class_names,
        }

    def from_text(self, a, b):
        """The outputs for raw text pairs (`a`, `b`: (pairs,) tf.string)."""
        features = {}
        caps = {"a": self._encoder.max_len_a, "b": self._encoder.max_len_b}
        for side, texts in (("a", a), ("b", b)):
            for kind, ragged in self.text.text_to_ids(texts, caps[side]).items():
                inner = [self._encoder.max_chars] if kind == "chars" else []
                features[f"{side}_{kind}"] = ragged.to_tensor(shape=[None, None, *inner])
        return self._outputs(features)

    def from_ids(self, **features):
        """The outputs for the model's id inputs (`PairEncoder.feature_names`)."""
        return self._outputs(features)

    def _endpoints(self):
        """name -> (function, its input specs by name): "token_ids", and "serving_default",
        on raw text where the text step runs in the graph, else the same as "token_ids"."""
        ids = {}
        for name in self._encoder.feature_names():
            inner = [self._encoder.max_chars] if name.endswith("_chars") else []
            ids[name] = tf.TensorSpec([None, None, *inner], tf.int32, name=name)
        endpoints = {"token_ids": (self.from_ids, ids), "serving_default": (self.from_ids, ids)}
        if self.text is not None:
            text = {name: tf.TensorSpec([None], tf.string, name=name) for name in ("a", "b")}
            endpoints["serving_default"] = (self.from_text, text)
        return endpoints

    def signatures(self):
        """{"serving_default": ..., "token_ids": ...} concrete functions (keyword inputs)."""
        return {
            name: tf.function(function).get_concrete_function(**specs)
            for name, (function, specs) in self._endpoints().items()
        }

    def serve_function(self):
        """The function of "serving_default" on one dict of its inputs: the call that
        `keras.layers.TFSMLayer` makes of its default endpoint, `serve`."""
        function, specs = self._endpoints()["serving_default"]
        return tf.function(lambda inputs: function(**inputs), input_signature=[specs])


def describe_tokenization(encoder):
    """How texts become the "token_ids" inputs, for export.json."""
    description = {
        "in_graph": graph_tokenization(encoder) is None,
        "tokenizer": encoder.policy.tokenizer,
        "lowercase": encoder.policy.lowercase,
        "max_len_a": encoder.max_len_a,
        "max_len_b": encoder.max_len_b,
        "vocab": (
            "preprocessing/vocab.txt: line i = the token of id i, backslash-escaped "
            "(\\\\, \\t, \\n, \\r), then a tab and its count"
        ),
        "padding_id": PAD_ID,
        "unknown_id": UNK_ID,
    }
    if description["in_graph"]:
        return description
    description["why_not_in_graph"] = graph_tokenization(encoder)
    if encoder.policy.tokenizer in _PYTHON_TOKENIZERS:
        description["tokenizer_call"] = _PYTHON_TOKENIZERS[encoder.policy.tokenizer]
    if encoder.char_vocab is not None:
        description["chars"] = (
            f"the first {encoder.max_chars} characters of each kept token, ids from "
            "preprocessing/char_vocab.txt, padded with 0 to max_chars"
        )
        description["max_chars"] = encoder.max_chars
    if encoder.pos:
        description["pos"] = (
            "the PTB tags of the text's tokens by the run's tagger (preprocessing/"
            "pos_tagger.json, gcnn_match.data.pos.tag_tokens), cut like the tokens; id = "
            "pos_ids[tag], pos_ids['<other>'] for any other tag; the bracket spellings ( [ { "
            "-LSB- -LCB- are -LRB-, ) ] } -RSB- -RCB- are -RRB-"
        )
        description["pos_ids"] = dict(pos.POS_IDS)
    if encoder.segments:
        description["segments"] = "the sentence (1, 2, ...) of each kept token of a"
    return description


def write_saved_model(trained, directory):
    """Writes the SavedModel of `trained` (a `TrainedModel`) into `directory`; returns the
    export.json record of it (its signatures and the tokenization of the "token_ids" inputs)."""
    rewrite = raw_input.run_tokenization(trained.encoder, trained.dataset)
    module = PairServing(trained.model, trained.encoder, trained.labels, trained.config, rewrite)
    signatures = module.signatures()
    module.serve = module.serve_function()
    tf.saved_model.save(module, str(directory), signatures=signatures)
    return {
        "path": directory.name,
        "signatures": {
            name: {
                "inputs": [spec.name for spec in tf.nest.flatten(fn.structured_input_signature)],
                "outputs": sorted(fn.structured_outputs),
            }
            for name, fn in signatures.items()
        },
        "tokenization": describe_tokenization(trained.encoder),
        "raw_text_rewrite": rewrite
        if module.text is not None and raw_text.rewrites(rewrite)
        else None,
    }
