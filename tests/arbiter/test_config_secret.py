"""Without SECRET_KEY the service never runs on a known development key: it makes a
random one, once, in the instance folder, and says so."""

from __future__ import annotations

import logging
import stat

from arbiter import config


def test_an_unset_secret_key_is_made_once_and_kept(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        first = config.load(str(tmp_path), env={})["SECRET_KEY"]
    assert "SECRET_KEY is not set" in caplog.text
    assert len(first) >= 40 and first != "dev-only-change-me"
    assert config.load(str(tmp_path), env={})["SECRET_KEY"] == first
    mode = (tmp_path / "secret_key").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert config.load(str(tmp_path / "other"), env={})["SECRET_KEY"] != first


def test_a_set_secret_key_is_used(tmp_path):
    settings = config.load(str(tmp_path), env={"SECRET_KEY": "from-the-environment"})
    assert settings["SECRET_KEY"] == "from-the-environment"
    assert not (tmp_path / "secret_key").exists()
