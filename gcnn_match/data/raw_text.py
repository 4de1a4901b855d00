"""Raw text as a user types it, rewritten with the token boundaries a pre-tokenized source has.

The Quora BiMPM files, SNLI's and MultiNLI's parse leaves and WikiQA's sentences ship text
tokenized Penn-Treebank style ("How do I learn Python quickly ?", "do n't"), and the rows that
read them split on whitespace. A question typed as "How do I learn Python quickly?" would give
the token `quickly?`, which the vocabulary does not hold. `normalize` rewrites raw text into
the source's form, so a whitespace split gives the tokens the model was trained on.

Each row's tokenization has a name (`row_tokenization`, recorded with the run's preprocessing):

- "ptb-pretokenized": text the files ship tokenized by the Stanford PTB tokenizer (Quora BiMPM):
  punctuation and clitics split off, brackets written -LRB- -RRB- -LSB- -RSB- -LCB- -RCB-,
  double quotes `` and ''.
- "ptb-parse": the leaves of the parse trees the files ship (SNLI, MultiNLI); the same form.
- "treebank-pretokenized": the boundaries of NLTK's Treebank tokenizer, which the Yahoo files
  this project writes were cut with and WikiQA's sentences share: literal brackets, and only
  the period that ends the text split off.
- "treebank", "tweet", "chars", "whitespace": the row's tokenizer reads the raw text itself
  (or the source's text is raw), so there is nothing to rewrite.

The rewrite is an ordered list of regular expressions that mean the same in Python's `re` and
in RE2, the engine of `tf.strings.regex_replace`: explicit character classes only (no `\\w`,
`\\b`, `\\s`, whose ASCII and Unicode readings differ), no look-around, `\\1`-style
replacements. `normalize` (Python) and `normalize_tf` (a TensorFlow graph of string ops, for
a serving signature) apply the same list and give the same output.

Example:

>>> normalize("How do I learn Python quickly? I don't know.", "ptb-pretokenized")
"How do I learn Python quickly ? I do n't know ."
>>> normalize('He said "no" (twice).', "ptb-parse")
"He said `` no '' -LRB- twice -RRB- ."
"""

import functools
import re

# Every whitespace character Python's `str.split` splits on, as literal characters (both engines
# read a literal character as itself).
_SPACE = "[\t\n\x0b\x0c\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+"
# Stands for a period kept inside a token (an abbreviation) while final periods are split off;
# a private-use character, which typed text does not hold.
_KEPT_DOT = "\ue000"
# Abbreviations whose period stays on the word, as the PTB tokenizer keeps it (`Mr.`, `etc.`).
_ABBREVIATIONS = (
    "(?i) (Mr|Mrs|Ms|Dr|Prof|Jr|Sr|St|Mt|vs|etc|Inc|Ltd|Co|Corp|Pvt|Bros|Dept|Gen|Gov|Govt"
    "|approx)\\. "
)
# Months and weekdays, whose lower-case spellings may be words ("mar.", "wed.").
_DATES = " (Jan|Feb|Mar|Apr|Aug|Sep|Sept|Oct|Nov|Dec|Mon|Tue|Tues|Wed|Thu|Thurs|Fri)\\. "

# Rules that apply before the text is cut into tokens: the characters themselves.
_CHARACTERS = (
    ("[\u201c\u201e]", " `` "),  # typographic double quotes
    ("\u201d", " '' "),
    ("[\u2018\u2019]", "'"),  # typographic apostrophes
    ("\u2026", "..."),
    ('(^|[ (\\[{<])"', "\\1 `` "),  # a double quote that opens
    ('"', " '' "),  # every other one closes
    ("(\\.\\.\\.+)", " \\1 "),
    (";", " ; "),
    ("([$%])", " \\1 "),
)
# The rules below read one token at a time: the text is padded so that every token sits between
# its own two spaces (" a  b  c "), and a pattern ` ... ` matches a whole token.
# Periods, Stanford PTB style: every final period is split off, except after an abbreviation or
# an initial ("U.S.", "F."); after a digit or a symbol it is split off too ("3.", "5.0.").
_PTB_PERIODS = (
    ("([^ .])\\.\\. ", "\\1 . . "),
    (_ABBREVIATIONS, f" \\1{_KEPT_DOT} "),
    (_DATES, f" \\1{_KEPT_DOT} "),
    (" ([A-Za-z])\\. ", f" \\1{_KEPT_DOT} "),
    ("([^ .][^ .])\\. ", "\\1 . "),
    ("([^ .A-Za-z])\\. ", "\\1 . "),
    (_KEPT_DOT, "."),
)
# Periods, NLTK Treebank style: only the period that ends the text is split off.
_TEXT_FINAL_PERIOD = (("([^ .])\\. $", "\\1 . "), ("([^ .])\\. ( '' )$", "\\1 . \\2"))
# ? and ! end a token (not inside one: "what?why", URLs); split before and after the periods
# ("it.?", "it?.").
_END_MARKS = ("([^ ?!])([?!]+) ", "\\1 \\2 ")
_COMMAS = (
    _END_MARKS,
    # A comma is split off unless it sits between digits ("1,000"); a colon that ends a token.
    ("([^0-9 ]),", "\\1 , "),
    (",([^0-9])", " , \\1"),
    ("([^ ]): ", "\\1 : "),
)
_CLITICS = (
    _END_MARKS,
    # "don't" -> "do n't", "can't" -> "ca n't", "it's" -> "it 's", "cannot" -> "can not".
    ("(?i)([a-z])(n't) ", "\\1 \\2 "),
    ("(?i)([^ ])('s|'m|'d|'re|'ve|'ll) ", "\\1 \\2 "),
    ("(?i) (can)(not) ", " \\1 \\2 "),
    ("(?i) (gon|wan)(na) ", " \\1 \\2 "),
    ("(?i) (got)(ta) ", " \\1 \\2 "),
    ("(?i) (lem|gim)(me) ", " \\1 \\2 "),
    # Trailing hyphens, ampersands, slashes and apostrophes ("viewer-", "workers'").
    ("([a-z0-9])(-+) ", "\\1 \\2 "),
    ("([^ &/])([&/]+) ", "\\1 \\2 "),
    ("(?i)([a-z0-9])' ", "\\1 ' "),
)
_PTB_BRACKETS = (
    ("\\(", " -LRB- "),
    ("\\)", " -RRB- "),
    ("\\[", " -LSB- "),
    ("\\]", " -RSB- "),
    ("\\{", " -LCB- "),
    ("\\}", " -RCB- "),
)
_LITERAL_BRACKETS = (("([()\\[\\]{}])", " \\1 "),)
_PAD = ((" ", "  "), ("^", " "), ("$", " "))
_SQUEEZE = ((" +", " "), ("^ | $", ""))


def _rules(brackets, periods):
    token_rules = _COMMAS + periods + _CLITICS
    return ((_SPACE, " "),) + _CHARACTERS + brackets + _SQUEEZE + _PAD + token_rules + _SQUEEZE


# Name -> the rewrite rules (pattern, replacement), in order; None: the text stays as typed.
TOKENIZATIONS = {
    "ptb-pretokenized": _rules(_PTB_BRACKETS, _PTB_PERIODS),
    "ptb-parse": _rules(_PTB_BRACKETS, _PTB_PERIODS),
    "treebank-pretokenized": _rules(_LITERAL_BRACKETS, _TEXT_FINAL_PERIOD),
    "treebank": None,
    "tweet": None,
    "chars": None,
    "whitespace": None,
}


def _get_rules(name):
    if name not in TOKENIZATIONS:
        raise ValueError(f"unknown tokenization {name!r}; known: {', '.join(TOKENIZATIONS)}")
    return TOKENIZATIONS[name]


@functools.cache
def _compiled(name):
    return [(re.compile(pattern), replacement) for pattern, replacement in _get_rules(name) or ()]


def rewrites(name):
    """Whether raw text is rewritten for tokenization `name` (False: it is read as typed)."""
    return _get_rules(name) is not None


def normalize(text, name):
    """`text` as typed, in the token form of tokenization `name` (tokens joined by one space).

    Args:
        text: a string.
        name: a key of `TOKENIZATIONS`.
    """
    for pattern, replacement in _compiled(name):
        text = pattern.sub(replacement, text)
    return text


def normalize_tf(strings, name):
    """`normalize` as TensorFlow string ops: the same output for every element of `strings`.

    Args:
        strings: a `tf.string` tensor of any shape (UTF-8).
        name: a key of `TOKENIZATIONS`.
    """
    import tensorflow as tf

    for pattern, replacement in _get_rules(name) or ():
        strings = tf.strings.regex_replace(strings, pattern, replacement)
    return strings


def row_tokenization(dataset, policy):
    """The name of the tokenization a row's training text has.

    Args:
        dataset: the `DatasetSpec` the row reads (`tokenized_as`, `given_tokens_as`).
        policy: the row's `TextPolicy`.
    """
    if policy.tokenizer != "whitespace":
        return policy.tokenizer
    if policy.use_given_tokens and dataset.given_tokens_as is not None:
        return dataset.given_tokens_as
    return dataset.tokenized_as or "whitespace"
