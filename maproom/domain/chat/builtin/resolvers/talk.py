"""Talk that changes nothing: help, greetings, thanks."""

from __future__ import annotations

from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Done, Outcome, phrase


@resolves("help")
def help_(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "help", "what can you do"."""
    return Done([], [phrase("help")])


@resolves("greet")
def greet(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "hello"."""
    return Done([], [phrase("hello"), phrase("help")])


@resolves("thanks")
def thanks(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "thanks", "great"."""
    return Done([], [phrase("welcome")])
