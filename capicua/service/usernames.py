"""Usernames: the one fold every look-up matches by, what a new username may be, and its look-alike key.

Every place a username is looked up (log in, a tournament partner, a referee, a bot invited to a table)
goes through :func:`username_key`: people type ``PartnerTwo``, ``partnertwo`` or, from a phone's
keyboard, the fullwidth ``ＰａｒｔｎｅｒＴｗｏ``, and they mean one account.

>>> username_key("PartnerTwo") == username_key("partnertwo") == username_key("ＰＡＲＴＮＥＲＴＷＯ") == "partnertwo"
True
>>> username_key("Straße") == username_key("STRASSE")
True

A new username is 3 to 24 letters (of any alphabet: ``joão``, ``María``, ``Серёжа``), digits, ``_``, ``.``
or ``-``, with its letters from one script: a name that mixes alphabets (a Cyrillic ``А`` in ``Аlice``) is
refused. The database keeps two keys of each username, each unique (so two servers cannot both take one):
:func:`username_key`, and :func:`username_skeleton`, the same fold after the letters of other scripts that
look like Latin ones (Unicode's confusables, from the ``confusable_homoglyphs`` package) are read as those:
the Cyrillic ``асе`` cannot be registered next to ``ace``, nor ``ace`` next to it.

>>> check_username("Ana.Silva"), check_username("joão_10"), check_username("ａｌｉｃｅ")
('Ana.Silva', 'joão_10', 'alice')
>>> username_skeleton("асе") == username_skeleton("ACE") == "ace"
True
>>> check_username("Аlice")
Traceback (most recent call last):
...
capicua.service.errors.ServiceError: the username 'Аlice' mixes alphabets (CYRILLIC, LATIN): use one
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import categories, confusables

from capicua.service.errors import ServiceError

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "check_username", "username_key", "username_skeleton"]

MIN_LENGTH = 3
MAX_LENGTH = 24
#: Besides letters and digits.
PUNCTUATION = frozenset("_.-")
#: Scripts that are written together (Unicode's UTS #39 counts each as one): Japanese, Korean, Chinese.
_TOGETHER = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "HANGUL"}),
    frozenset({"HAN", "BOPOMOFO"}),
)
#: Not a script of their own: digits and punctuation (COMMON), combining marks (INHERITED).
_NEUTRAL = frozenset({"COMMON", "INHERITED"})
#: The scripts a look-alike is read as.
_PROTOTYPES = frozenset({"LATIN", "COMMON"})


def username_key(name: str) -> str:
    """The form a username is matched by: NFKC, case-folded (then NFKC again, as Unicode's NFKC_Casefold),
    without the spaces around it. Any text has a key (a look-up of a name nobody has finds nothing)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def username_skeleton(name: str) -> str:
    """:func:`username_key` of ``name`` with each letter of another script that has a Latin look-alike
    (Unicode's confusables.txt) read as that look-alike. Latin names are their own skeleton."""
    return username_key("".join(_prototype(ch) for ch in unicodedata.normalize("NFKC", name)))


@functools.lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    if categories.alias(ch) in _PROTOTYPES | {"INHERITED"}:
        return ch
    glyphs = [
        d["c"]
        for d in confusables.confusables_data.get(ch, ())
        if all(categories.alias(c) in _PROTOTYPES for c in d["c"])
    ]
    if not glyphs:
        return ch
    ascii_ = [g for g in glyphs if g.isascii()]
    return str((ascii_ or glyphs)[0])


def check_username(name: str) -> str:
    """The username to keep for ``name`` as typed (NFKC: fullwidth letters made plain; the case kept), or
    :class:`ServiceError` ``bad-username`` saying what is wrong with it."""
    kept = unicodedata.normalize("NFKC", name or "")
    if not MIN_LENGTH <= len(kept) <= MAX_LENGTH:
        raise ServiceError("bad-username", f"a username has {MIN_LENGTH} to {MAX_LENGTH} characters")
    for i, ch in enumerate(kept):
        kind = unicodedata.category(ch)
        if not (kind[0] == "L" or kind == "Nd" or (kind[0] == "M" and i > 0) or ch in PUNCTUATION):
            raise ServiceError("bad-username", f"a username has letters, digits, '.', '_' or '-' only (not {ch!r})")
    scripts = categories.unique_aliases(kept) - _NEUTRAL
    if len(scripts) > 1 and not any(scripts <= together for together in _TOGETHER):
        raise ServiceError(
            "bad-username", f"the username {name!r} mixes alphabets ({', '.join(sorted(scripts))}): use one"
        )
    return kept
