"""Reading a yes or a no in the words people answer an invitation with ("Yes, count
me in!", "Sure", "No thanks"), one line at a time, so that a greeting ("Hi Ann,")
and a signature around it do not matter."""

from __future__ import annotations

import re

ACCEPT = (
    "accept",
    "accepted",
    "i accept",
    "yes",
    "yeah",
    "yep",
    "yup",
    "ok",
    "okay",
    "sure",
    "count me in",
    "i'm in",
    "im in",
    "i am in",
    "sounds good",
    "let's play",
    "lets play",
    "with pleasure",
    "gladly",
    "absolutely",
    "of course",
    "happy to",
    "i'd love to",
    "i would love to",
    "i'll join",
    "i will join",
)
"""Answers read as accepting (a line that is one of them, or starts with one)."""

DECLINE = (
    "decline",
    "declined",
    "i decline",
    "no",
    "nope",
    "no thanks",
    "no thank you",
    "not interested",
    "count me out",
    "i'm out",
    "not this time",
    "i'll pass",
    "i will pass",
    "pass",
    "sorry, no",
    "can't",
    "cannot",
    "i can't",
    "i cannot",
)
"""Answers read as declining."""

BLOCK = ("block",)
"""Answers read as blocking every invitation to the address."""

_WORDS = re.compile(r"[a-z']+")


def _phrase(line: str) -> str:
    """Return ``line`` as lower-case words (curly apostrophes made straight)."""
    return " ".join(_WORDS.findall(line.lower().replace("\u2019", "'")))


def _starts(phrase: str, answers: tuple[str, ...]) -> bool:
    return any(phrase == a or phrase.startswith(a + " ") for a in answers)


def answer_of(lines: list[str]) -> tuple[str, str] | None:
    """Return ``(word, line)`` for the first line that answers an invitation:
    ``accept``, ``decline`` or ``block`` and the line it was read from; None when no
    line does. A line with a no is never read as a yes ("No, sorry" declines)."""
    for line in lines:
        phrase = _phrase(line)
        if _starts(phrase, BLOCK):
            return "block", line
        if _starts(phrase, DECLINE):
            return "decline", line
        if _starts(phrase, ACCEPT):
            return "accept", line
    return None
