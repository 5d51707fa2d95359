"""Usernames: one fold for every look-up (NFKC, case-folded), what a new username may be, and the look-alike
key that keeps a Cyrillic ``асе`` from passing for ``ace`` (capicua.service.usernames)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capicua.service.errors import ServiceError
from capicua.service.usernames import check_username, username_key, username_skeleton

#: Latin letters as people type them in Portuguese and Spanish, digits and the punctuation allowed.
LATIN = "abcdefghijklmnopqrstuvwxyzçãõáéíóúâêôàñü" + "0123456789" + "_.-"
usernames = st.text(alphabet=LATIN, min_size=3, max_size=24).filter(lambda u: u[0] not in "_.-")


def fullwidth(text: str) -> str:
    """The fullwidth forms a phone's keyboard may type (ASCII letters, digits and punctuation)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@st.composite
def typed(draw: st.DrawFn, name: str) -> str:
    """``name`` as somebody may type it: any letter in upper case, any ASCII one fullwidth."""
    out = []
    for ch in name:
        if draw(st.booleans()):
            ch = ch.upper()
        if ch.isascii() and draw(st.booleans()):
            ch = fullwidth(ch)
        out.append(ch)
    return "".join(out)


@settings(max_examples=300)
@given(st.data(), usernames)
def test_a_username_typed_in_any_case_or_width_has_one_key_and_one_skeleton(data: st.DataObject, name: str) -> None:
    variant = data.draw(typed(name))
    assert username_key(variant) == username_key(name)
    assert username_skeleton(variant) == username_skeleton(name)
    kept = check_username(variant)  # accepted as typed, fullwidth made plain, the case kept
    assert username_key(kept) == username_key(name) and kept.lower() == unicodedata.normalize("NFKC", variant).lower()


@given(st.text(max_size=40))
def test_the_fold_is_total_and_idempotent(text: str) -> None:
    key = username_key(text)
    assert username_key(key) == key
    assert username_key(text.upper()) == username_key(text.lower()) or not text.isascii()


@settings(max_examples=200)
@given(usernames, st.data())
def test_a_latin_username_with_one_letter_of_another_alphabet_is_refused(name: str, data: st.DataObject) -> None:
    letters = [i for i, ch in enumerate(name) if ch.isalpha()]
    if len(letters) < 2:  # one Latin letter must stay (a name of look-alikes alone is one alphabet: see below)
        return
    i = data.draw(st.sampled_from(letters))
    foreign = data.draw(st.sampled_from("аеосрхіАВЕКМНОРСТХαοΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"))  # Cyrillic and Greek look-alikes
    with pytest.raises(ServiceError) as refused:
        check_username(name[:i] + foreign + name[i + 1 :])
    assert refused.value.code == "bad-username" and "alphabets" in refused.value.message


@pytest.mark.parametrize(
    ("name", "kept"),
    [("Ana.Silva", "Ana.Silva"), ("joão_10", "joão_10"), ("María-José", "María-José"), ("ａｌｉｃｅ", "alice"),
     ("Серёжа", "Серёжа"), ("田中たろう", "田中たろう")],
)  # fmt: skip
def test_names_of_one_alphabet_are_accepted_as_typed(name: str, kept: str) -> None:
    assert check_username(name) == kept


@pytest.mark.parametrize(
    ("name", "words"),
    [("ab", "3 to 24"), ("a" * 25, "3 to 24"), ("ana silva", "' '"), ("ana@x", "'@'"), ("Аlice", "alphabets"),
     ("\u0301abc", "'\u0301'"), ("ana\u200bb", "'\\u200b'")],
)  # fmt: skip
def test_other_names_are_refused_saying_why(name: str, words: str) -> None:
    with pytest.raises(ServiceError) as refused:
        check_username(name)
    assert refused.value.code == "bad-username" and words in refused.value.message, refused.value.message


def test_whole_words_of_another_alphabet_that_read_as_latin_share_the_latin_skeleton() -> None:
    assert username_skeleton("асе") == username_skeleton("ace") == "ace"  # all Cyrillic
    assert username_skeleton("ΤΟΜ") == username_skeleton("tom")  # all Greek
    assert username_skeleton("Серёжа") != username_skeleton("cepeжa")  # a real Russian name is itself
    assert username_key("асе") != username_key("ace")  # the look-up key is the plain fold
