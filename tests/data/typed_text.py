"""Pre-tokenized text written back as a user types it, to test the rewrite of raw text on real
pairs: punctuation, closing brackets and quotes and clitics join the word before them, opening
ones the word after, PTB's bracket names become brackets, and the first letter is a capital."""

_JOIN_LEFT = {".", ",", "?", "!", ":", ";", "...", "%", "''", "-RRB-", "-RSB-", "-RCB-"}
_JOIN_LEFT |= {")", "]", "}"}
_CLITICS = {"n't", "'s", "'m", "'d", "'re", "'ve", "'ll"}
_JOIN_RIGHT = {"``", "$", "-LRB-", "-LSB-", "-LCB-", "(", "[", "{"}
_CHARACTERS = {"``": '"', "''": '"', "-LRB-": "(", "-RRB-": ")", "-LSB-": "["}
_CHARACTERS |= {"-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
# Words the PTB tokenizer cuts in two ("gonna" -> "gon na").
_HALVES = {("gon", "na"), ("wan", "na"), ("got", "ta"), ("lem", "me"), ("gim", "me")}


def as_typed(tokens):
    """The text a user would type for `tokens` (a list of PTB-style tokens)."""
    text, glue = "", True
    for i, token in enumerate(tokens):
        joins = token in _JOIN_LEFT or token.lower() in _CLITICS
        joins = joins or (i > 0 and (tokens[i - 1].lower(), token.lower()) in _HALVES)
        text += ("" if glue or joins else " ") + _CHARACTERS.get(token, token)
        glue = token in _JOIN_RIGHT
    return text[:1].upper() + text[1:]


def capitalised(tokens):
    """`tokens` with the first letter a capital, as `as_typed` writes it."""
    return [tokens[0][:1].upper() + tokens[0][1:], *tokens[1:]] if tokens else []
