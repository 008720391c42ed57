"""Quoted text recognised by what it says: the judge's own mail, quoted back.

A reply names the mail it answers (In-Reply-To, References). When that is
one of the judge's own outgoing mails to the same address, the judge knows
the exact text it sent (the outbox keeps a redacted copy, tokens masked,
for ``judge.keep_sent_days``), and recognises runs of its lines wherever
they reappear in the reply: prefixed with ``>`` or not, re-wrapped at any
width (Android Gmail continues a long quoted line on an unprefixed line),
pasted back without the quote marks.

Lines are compared as words: each line is folded (NFKC), its typographic
marks made plain, its quote marks removed, its secrets masked as the kept
copy masks them, and split on white space. The judge's texts are one
sequence of words (line breaks are only spaces: a re-wrap moves them); a
*run* is a sequence of consecutive lines of the reply (blank lines aside)
whose words are one contiguous stretch of that sequence. The words are
matched through a suffix automaton of the judge's texts (built in time
linear in their length; each word of the reply is one step), so the whole
stage is linear in the mail's size and the texts'.

A run is the judge's text, dropped like a quote, when it holds a ``>``
line (it is part of a quoted block: an unprefixed continuation), or when
it has two lines or more, unless every line of it is a whole line of a
list the judge sent (an order as ``Orders held for ...`` lists it, a
choice as a request lists it: a player who pastes back the orders the
judge held, or the choice it offered, means them). A single line on its
own (``A Mos - Ukr``, a choice copied from the request) is always the
player's own.

Without the judge's text, one rule stands: an unprefixed line between two
quoted lines, right after a long quoted line (60 characters or more, the
wrapping width's neighbourhood), continues that quoted line.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.mail.redact import fold, mask_secrets
from judge.mail.typography import plain_marks

__all__ = ["KnownText", "mark_quoted", "words_of"]

_WRAPPED = 60
"""A quoted line at least this long may have been wrapped by the client."""
_MAX_WORDS = 200_000
"""Most words of the judge's texts kept for one mail."""


def _unquote(line: str) -> tuple[str, bool]:
    """(the line without its quote marks, whether it had any)."""
    text = line.lstrip()
    if not text.startswith(">"):
        return line, False
    while text.startswith(">"):
        text = text[1:].lstrip()
    return text, True


def words_of(line: str) -> tuple[str, ...]:
    """A line as the comparison reads it (module docstring)."""
    text, _ = _unquote(plain_marks(fold(line)))
    text = text.casefold()
    words = text.split()
    # mask_secrets only where it may change something: a SIGNON, "token is:",
    # or a word as long as a token (the kept copy of a sent mail is masked).
    if "signon" in text or "token" in text or any(len(w) >= 12 for w in words):
        words = mask_secrets(text).split()
    return tuple(words)


class KnownText:
    """The texts of the judge's mails a reply answers, ready to match."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._ids: dict[str, int] = {}
        self._next: list[dict[int, int]] = [{}]
        self._link: list[int] = [-1]
        self._length: list[int] = [0]
        self._last = 0
        self.items: set[tuple[str, ...]] = set()
        """Whole lines of the judge's lists (indented): an order as ``Orders
        held for ...`` lists it, a choice as a request lists it."""
        count = 0
        for n, text in enumerate(texts):
            for line in text.splitlines():
                words = words_of(line)
                if not words:
                    continue
                count += len(words)
                if count > _MAX_WORDS:
                    break
                if line[:1] in (" ", "\t"):
                    self.items.add(words)
                for word in words:
                    self._add(self._ids.setdefault(word, len(self._ids)))
            self._add(-1 - n)  # a separator no word matches: no run spans two mails

    def _add(self, c: int) -> None:
        """Extend the suffix automaton by one symbol (the standard online build)."""
        nxt, link, length = self._next, self._link, self._length
        cur = len(nxt)
        nxt.append({})
        length.append(length[self._last] + 1)
        link.append(0)
        p = self._last
        while p != -1 and c not in nxt[p]:
            nxt[p][c] = cur
            p = link[p]
        if p != -1:
            q = nxt[p][c]
            if length[p] + 1 == length[q]:
                link[cur] = q
            else:
                clone = len(nxt)
                nxt.append(dict(nxt[q]))
                length.append(length[p] + 1)
                link.append(link[q])
                while p != -1 and nxt[p].get(c) == q:
                    nxt[p][c] = clone
                    p = link[p]
                link[q] = clone
                link[cur] = clone
        self._last = cur

    def step(self, state: int, words: Sequence[str]) -> int:
        """The state after ``words`` from ``state`` (0: the start), or -1 when
        the words do not continue a stretch of the judge's text there."""
        for word in words:
            c = self._ids.get(word)
            if c is None:
                return -1
            state = self._next[state].get(c, -1)
            if state < 0:
                return -1
        return state


def mark_quoted(lines: Sequence[str], known: KnownText | None) -> list[str]:
    """``lines`` with every unprefixed line that is part of a quote (the
    module docstring's rules) prefixed with ``> ``, so that the quote
    stripper drops it with its block and the attribution above it."""
    out = list(lines)
    quoted = [_unquote(line)[1] for line in lines]
    prefixed = list(quoted)
    if known is not None:
        _mark_runs(out, quoted, known)
    _mark_continuations(out, quoted, prefixed)
    return out


def _mark_runs(out: list[str], quoted: list[bool], known: KnownText) -> None:
    run: list[int] = []
    state = 0

    def close() -> None:
        own = [i for i in run if not quoted[i]]
        if not own:
            return
        lines = [words_of(out[i]) for i in own]
        if any(quoted[i] for i in run):
            pass  # a continuation of a quoted block
        elif all(words in known.items for words in lines):
            return  # lines of the judge's lists pasted back: the player's orders
        elif len(own) < 2:
            return  # one line on its own: retyped or pasted, the player's
        for i in own:
            out[i] = "> " + out[i]
            quoted[i] = True

    for i, line in enumerate(out):
        words = words_of(line)
        if not words:
            continue  # blank lines neither join nor break a run
        after = known.step(state, words) if run else -1
        if after < 0:
            close()
            run = []
            after = known.step(0, words)
        if after < 0:
            state = 0
            continue
        run.append(i)
        state = after
    close()


def _mark_continuations(out: list[str], quoted: list[bool], prefixed: list[bool]) -> None:
    """An unprefixed line between two lines the writer's client prefixed
    (not lines recognised as the judge's: a line typed between two of those
    is the player's), under a long one."""
    for i in range(1, len(out) - 1):
        if quoted[i] or not out[i].strip() or not prefixed[i - 1] or not prefixed[i + 1]:
            continue
        above, _ = _unquote(out[i - 1])
        if len(above) >= _WRAPPED:
            out[i] = "> " + out[i]
            quoted[i] = True
