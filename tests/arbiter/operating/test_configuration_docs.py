"""The configuration page of the docs (``docs/operating/configuration.md``) and the
settings object agree (issue 21, item 4; issue 27): the page's tables are what
:func:`arbiter.settings.reference` writes from the fields of :class:`Settings`, every
setting is in them once, and the environment variables the page tells operators to set
are exactly those the settings read."""

from __future__ import annotations

import re

from arbiter import settings

PAGE = settings.REFERENCE_PAGE


def generated_part() -> str:
    """Return the page's text between the generated part's markers, markers included."""
    text = PAGE.read_text()
    assert settings.BEGIN in text and settings.END in text, f"{PAGE.name} lost its markers"
    start = text.index(settings.BEGIN)
    return text[start : text.index(settings.END) + len(settings.END)]


def documented() -> list[str]:
    """Return the names in the first column of the page's tables, in order."""
    names = []
    for line in PAGE.read_text().splitlines():
        if line.startswith("| `"):
            names += re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1])
    return names


def test_the_page_is_what_the_settings_object_writes():
    """Given the settings object, the page's tables are exactly its reference: a field
    added, removed, renamed, re-described or given another default fails this test
    until ``arbiter settings-reference`` is run."""
    assert generated_part() == settings.reference(), (
        f"{PAGE.name} differs from the settings object: run `arbiter settings-reference`"
    )


def test_every_setting_is_documented_once_and_nothing_else():
    names = documented()
    assert len(names) == len(set(names)), "a name is in the tables twice"
    expected = set(settings.names()) | set(settings.PROCESS_VARIABLES)
    assert set(names) == expected


def test_every_field_says_what_it_does():
    for name in settings.names():
        group, attribute, _ = settings._BY_NAME[name]
        field = settings.GROUPS[group].__dataclass_fields__[attribute]
        doc = field.metadata["doc"]
        assert doc and doc[0].isupper() or doc[0] in "`.", name
        assert doc.rstrip().endswith("."), f"{name}: one sentence, ending with a full stop"


def test_the_environment_read_is_the_documented_one(tmp_path):
    """Given an environment that records every name asked of it, ``from_env`` asks
    the deployment settings, the process's variables it uses (``PORT`` for the
    default ``BASE_URL``) and ``ARBITER_OVERRIDES``, and nothing else; at most about
    15 settings come from the environment."""

    class Recording(dict):
        asked: set[str] = set()

        def get(self, name, default=None):
            self.asked.add(name)
            return super().get(name, default)

    env = Recording(SECRET_KEY="k")
    settings.Settings.from_env(env, str(tmp_path))
    expected = {*settings.environment_names(), *settings.PROCESS_VARIABLES}
    assert env.asked <= expected, sorted(env.asked - expected)
    assert set(settings.environment_names()) <= env.asked
    assert len(settings.environment_names()) <= 16
