"""The five languages of the built-in agent: English, Spanish, Portuguese, French and German.

A message is read in English: `detect` tells its language from the words it holds, `english`
turns its command words, colours, numbers and everyday nouns into English (each language's
rewrites first, for word order: "blende die Städte aus" is "hide the Städte"; then its
phrases, longest first), keeping every other word as typed: place names ("Múnich" is looked up
as it is), layer names (a layer called "Rios" stays "Rios") and new names ("Barrios"). The
reply is said in the message's language (`say`, from each language's catalogue of replies).

Each language is one module (`en`, `es`, `pt`, `fr`, `de`) with its `PHRASES` (words and
phrases to English), `REWRITES` (regular expressions over the message, without accents),
`REPLIES` (the catalogue) and `YES` (what confirms a question). docs/chat.md lists what each
understands.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from types import ModuleType
from typing import Any

from maproom.domain.chat.lang import common, de, en, es, fr, pt

LANGUAGES: dict[str, ModuleType] = {"en": en, "es": es, "pt": pt, "fr": fr, "de": de}
TOKEN = re.compile(r"\"[^\"]*\"|[\w#]+(?:[-'][\w]+)*|[^\w\s]|\s+")
LONGEST = 5  # words in the longest phrase of a lexicon
NAME_JOINS = frozenset({"de", "do", "da", "dos", "das", "del", "di", "du", "des", "la", "le",
                        "los", "las", "am", "an", "der", "im", "sur", "y", "e"})  # fmt: skip


def fold_char(char: str) -> str:
    """One character in lower case without its accent (always one character, so that what
    is found in the folded text is at the same place in the text as typed)."""
    lowered = char.lower()
    if len(lowered) != 1:
        return char
    bare = unicodedata.normalize("NFKD", lowered)
    return bare[0] if (bare and bare[0].isascii()) or bare[:1].isalpha() else lowered


def fold(text: str) -> str:
    """Text in lower case without accents, character for character."""
    return "".join(fold_char(char) for char in text)


@functools.cache
def _phrases_of(code: str) -> frozenset[tuple[str, ...]]:
    """A language's phrases of two or three words, not all of them English ("va a")."""
    return frozenset(
        words for words in _lexicon(code)[0]
        if 2 <= len(words) <= 3 and not all(word in en.WORDS for word in words)
    )  # fmt: skip


@functools.cache
def _lexicon(code: str) -> tuple[dict[tuple[str, ...], str], frozenset[str]]:
    """A language's phrases by their folded words, and its own words (for `detect`)."""
    module = LANGUAGES[code]
    phrases: dict[tuple[str, ...], str] = {}
    for said, meaning in module.PHRASES.items():  # split as messages are ("s'il": s ' il)
        phrases[tuple(t for t in TOKEN.findall(fold(said)) if t.strip())] = meaning
    own = frozenset(
        words[0] for words, meaning in phrases.items()
        if len(words) == 1 and words[0] != fold(meaning) and words[0] not in en.WORDS
    )  # fmt: skip
    return phrases, own | frozenset(fold(w) for w in getattr(module, "MARKERS", ()))


def detect(
    text: str, protected: frozenset[str] = frozenset(), places: dict[str, int] | None = None
) -> str:
    """The language a message is written in (English when nothing says otherwise); `places`:
    how many names of places it holds in each language ("Alemania": es)."""
    words = [w for w in re.findall(r"\w+", fold(text)) if w not in protected]
    scores = {code: float((places or {}).get(code, 0)) for code in LANGUAGES}
    owners = {code: _lexicon(code)[1] for code in LANGUAGES if code != "en"}
    for code, own in owners.items():
        phrases = _phrases_of(code)
        # a word of several languages ("usa": es and pt) counts for each in part
        scores[code] += sum(
            1 / sum(word in other for other in owners.values()) for word in words if word in own
        )
        scores[code] += sum(
            1 for size in (2, 3) for i in range(len(words) - size + 1)
            if tuple(words[i : i + size]) in phrases
        )  # fmt: skip
    english = sum(1 for word in words if word in en.WORDS)
    best = max(scores, key=lambda code: (scores[code], code == "en"))
    return best if scores[best] > 0 and scores[best] > english * 0.5 else "en"


def english(text: str, code: str, protected: frozenset[str] = frozenset()) -> str:
    """A message in English (see the module docstring); English is returned as it is."""
    if code == "en":
        return text
    module = LANGUAGES[code]
    # each sentence on its own ("Guten Tag. Könnten Sie die Karte auf München zoomen?")
    sentences = re.split(r"(?<=[.!?])(\s+)", text)
    for at in range(0, len(sentences), 2):
        for pattern, template in module.REWRITES:
            sentences[at] = _rewrite(sentences[at], pattern, template)
    text = "".join(sentences)
    phrases = _lexicon(code)[0]
    tokens = TOKEN.findall(text)
    inside: set[int] = set()
    if getattr(module, "NAMES_CAPITALISED", True):  # a capital inside a sentence: a name
        words = [i for i, token in enumerate(tokens) if token.strip()]
        names = {
            i
            for i in words[1:]
            if tokens[i][:1].isupper() and tokens[i - 2] not in (".", "?", "!", ";")
        }
        protected = protected | {fold(tokens[i]) for i in names}
        # "Rio de Janeiro", "Frankfurt am Main": a small word between two names is theirs
        inside = {
            words[k]
            for k in range(1, len(words) - 1)
            if fold(tokens[words[k]]) in NAME_JOINS
            and (words[k - 1] in names or (k == 1 and tokens[words[0]][:1].isupper()))
            and words[k + 1] in names
        }
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if i in inside:
            out.append(tokens[i])
            i += 1
            continue
        found = _longest(tokens, i, phrases, protected)
        if found is None:
            out.append(tokens[i])
            i += 1
        else:
            meaning, i = found
            out.append(meaning)
    text = re.sub(r"\s+", " ", "".join(out)).strip()
    text = re.sub(r"\b(to|the|of|a) \1\b", r"\1", text)  # "me leva pro": take me to to the
    for pattern, template in getattr(module, "AFTER", ()):
        text = _rewrite(text, pattern, template)
    return text


def _longest(
    tokens: list[str], start: int, phrases: dict[tuple[str, ...], str], protected: frozenset[str]
) -> tuple[str, int] | None:
    """The longest phrase of the lexicon at `tokens[start]`: its meaning and where it ends."""
    if not tokens[start].strip() or tokens[start][0] == '"' or fold(tokens[start]) in protected:
        return None
    words: list[str] = []
    ends: list[int] = []
    at = start
    while at < len(tokens) and len(words) < LONGEST:
        token = tokens[at]
        if token.isspace():
            at += 1
            continue
        if fold(token) in protected:
            break
        words.append(fold(token))
        ends.append(at + 1)
        at += 1
    for size in range(len(words), 0, -1):
        meaning = phrases.get(tuple(words[:size]))
        if meaning is not None:
            return meaning, ends[size - 1]
    return None


def _rewrite(text: str, pattern: re.Pattern[str], template: str) -> str:
    """Apply a rewrite found in the folded text to the text as typed (groups keep their
    spelling)."""
    folded = fold(text)
    pieces: list[str] = []
    at = 0
    for match in pattern.finditer(folded):
        pieces.append(text[at : match.start()])
        pieces.append(re.sub(r"\\g<(\w+)>|\\(\d)", _typed(match, text), template))
        at = match.end()
    pieces.append(text[at:])
    return "".join(pieces)


def _typed(match: re.Match[str], text: str) -> Callable[[re.Match[str]], str]:
    """A template's group reference replaced by that group of the text as typed."""

    def group(found: re.Match[str]) -> str:
        name = found.group(1) or found.group(2)
        key: int | str = int(name) if name.isdigit() else name
        start, end = match.span(key)
        return text[start:end] if start >= 0 else ""

    return group


def gloss(name: str) -> str:
    """A folded name with its words in English where a lexicon knows them ("stadte": cities),
    so that layers named in one language are found by words of another."""
    return " ".join(_GLOSSARY.get(word, word) for word in name.split())


_GLOSSARY = {
    fold(form): english
    for english, forms in common.NOUNS.items()
    for form in forms
    if fold(form) != english
} | {
    # English words people use for the same things ("the sights": a layer called Sites)
    "sight": "site", "sights": "sites", "attraction": "site", "attractions": "sites",
}  # fmt: skip


def known_word(text: str) -> bool:
    """Whether a message is only words the agent knows in some language ("undo", "bonito"):
    such a message is never looked up as a place."""
    words = re.findall(r"\w+", fold(text))
    if not words:
        return False
    return all(
        word in en.WORDS or any((word,) in _lexicon(code)[0] for code in ("es", "pt", "fr", "de"))
        for word in words
    )


def yes(code: str, text: str) -> bool:
    """Whether an answer to a yes/no question is a yes, in the language or in English."""
    said = fold(text).strip().rstrip(".!")
    words = {fold(w) for w in LANGUAGES[code].YES} | en.YES
    first = re.split(r"[\s,;:.!]+", said)[0]
    return said in words or first in words


Template = str | Callable[[dict[str, Any]], str]


def say(code: str, key: str, values: dict[str, Any]) -> str:
    """A sentence of the reply catalogue in a language (English where it has none)."""
    module = LANGUAGES.get(code, en)
    template: Template = module.REPLIES.get(key) or en.REPLIES[key]
    shown = {name: module.shown(value) for name, value in values.items()}
    if callable(template):
        return template({**values, "_": shown})
    return template.format(**shown)
