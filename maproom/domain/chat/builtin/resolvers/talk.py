"""Talk that changes nothing: help, greetings, thanks."""

from __future__ import annotations

from maproom.domain.chat.builtin.mind import Mind, resolves
from maproom.domain.chat.builtin.outcome import Ask, Done, Outcome, phrase


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


@resolves("look")
def look(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "make it pop", "make it more elegant": a wish that names no change, so ask which."""
    return Ask(phrase("which_look"), [], [])


@resolves("which_ones")
def which_ones(mind: Mind, slots: dict[str, str]) -> Outcome:
    """ "show only the big ones" with nothing said of which or by what: ask."""
    return Ask(phrase("which_ones"), [], [])
