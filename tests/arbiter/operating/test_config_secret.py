"""Without SECRET_KEY the service never runs on a known development key: it makes a
random one, once, in the instance folder, and says so once."""

from __future__ import annotations

import logging
import stat

from arbiter.settings import Settings


def key(path, env) -> str:
    return Settings.from_env(env, str(path)).service.secret_key


def test_an_unset_secret_key_is_made_once_and_kept(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        first = key(tmp_path, {})
    assert "SECRET_KEY is not set" in caplog.text
    assert len(first) >= 40 and first != "dev-only-change-me"
    caplog.clear()
    assert key(tmp_path, {}) == first
    assert "SECRET_KEY is not set" not in caplog.text  # said once, by the process that made it
    mode = (tmp_path / "secret_key").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert key(tmp_path / "other", {}) != first


def test_a_set_secret_key_is_used(tmp_path):
    assert key(tmp_path, {"SECRET_KEY": "from-the-environment"}) == "from-the-environment"
    assert not (tmp_path / "secret_key").exists()
