"""Schemathesis hooks (``SCHEMATHESIS_HOOKS=tests.contract.hooks``): point generated
requests at real games with real tokens, so the fuzzer reaches more than 404s.

The games and accounts come from ``tests/contract/seed.py`` (``ARBITER_FUZZ_FIXTURES``
names the file). Only cases generated as valid (positive) are changed, and each choice
is a function of the generated values, so a failing case shrinks and replays the same
way: about three in four get the id of a real game (or campaign, or one of the
account's spare tokens) fit for the route, and a few moves become the first legal move
of the game now, so moves are accepted too. Long-polls wait at most half a second, in
every case whose ``wait`` is valid (a real wait blocks until a move comes, up to 30 s).
The auth provider sends the route's real token (a signed-in account's personal token,
creator, organiser or seat); schemathesis's ``ignored_auth`` check then also tries
each request without it and with a wrong one.
"""

from __future__ import annotations

import json
import os
import zlib
from functools import lru_cache
from pathlib import Path

import requests
import schemathesis

CREATOR_ROUTES = ("/pause", "/resume", "/extend")
ACCOUNT_CREATES = ("/v1/games", "/v1/bulk-games")
"""Creations sent with the account's personal token (``games:create``)."""


@lru_cache(maxsize=1)
def fixtures() -> dict:
    """Return the seeded games, campaign and service URL."""
    return json.loads(Path(os.environ["ARBITER_FUZZ_FIXTURES"]).read_text())


def _draw(case, salt: str) -> int:
    """Return a number in 0..99 that depends only on the case's generated values."""
    seen = json.dumps(
        [case.operation.label, case.path_parameters, case.query, salt], sort_keys=True, default=str
    )
    return zlib.crc32(seen.encode()) % 100


def _game_for(path: str, draw: int, secured: bool) -> dict:
    """Return the seeded game a route should see (one in four of those a personal token
    may open: the account's own game, with its token)."""
    games = fixtures()["games"]
    if path.endswith("/record"):
        return games["over"]
    if path.endswith(CREATOR_ROUTES) or path.endswith("/vacation"):
        return games["mine"] if draw % 4 == 1 else games["clocked"]
    if path.endswith("/resign"):
        return games["resign"]
    if path.endswith("/back"):
        return games["back"]
    if path.endswith("/board.svg"):
        return games["board"]
    if secured and draw % 4 == 1:
        return games["mine"]
    return games["over"] if not secured and draw % 2 == 0 else games["active"]


def _account_token(case) -> str | None:
    """Return the personal token a route of the account, or a creation, gets: the
    second account's on ``DELETE /v1/me`` (deleting it leaves the first one working),
    the third's on ``/v1/me/tokens`` (it lists, makes and revokes its own tokens, so
    the fuzzer never learns, and never revokes, the first one's token), none on
    ``/v1/me/stream`` (with a real token it never ends), else the account's; None for
    other routes."""
    path, method = case.operation.path, case.operation.method.upper()
    account = fixtures()["account"]
    if path == "/v1/me/stream":
        return None
    if path == "/v1/me" and method == "DELETE":
        return account["doomed"]
    if path.startswith("/v1/me/tokens"):
        return account["keys"]
    if path.startswith("/v1/me") or path in ACCOUNT_CREATES:
        return account["token"]
    return None


def _token_for(path: str, game: dict, draw: int) -> str | None:
    """Return the token a route wants for ``game``: creator, or a seat's."""
    if path.endswith(CREATOR_ROUTES):
        return game["creator"]
    return game["tokens"][draw % len(game["tokens"])] if game["tokens"] else None


def _legal_move(game_id: str, token: str) -> dict | None:
    """Return a body playing the seat's first legal move now, or None."""
    answer = requests.get(
        f"{fixtures()['url']}/v1/games/{game_id}/legal-moves",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    legal = answer.json() if answer.ok else {}
    if legal.get("moves"):
        return {"move": legal["moves"][0], "expected_version": legal["version"]}
    return None


def _seeded_game(game_id: str) -> dict | None:
    """Return the seeded game with this id, if it is one."""
    return next((g for g in fixtures()["games"].values() if g["id"] == game_id), None)


@schemathesis.auth()
class SeededTokens:
    """Bearer tokens of the seeded account and games: the account's personal token on
    ``/v1/me/...`` and on creations (see :func:`_account_token`), the creator's on
    pause, resume and extend, the organiser's on a campaign, otherwise a seat's, of the
    game in the path (or of the game the route is pointed at, when its path names no
    seeded game yet); the account's game gets the account's token throughout."""

    def get(self, case, context):
        """Return the seeded games and campaign."""
        return fixtures()

    def set(self, case, data, context):
        """Send the token the route wants as ``Authorization: Bearer``."""
        if not case.operation.definition.raw.get("security"):
            return
        params = case.path_parameters or {}
        if case.operation.path.startswith("/v1/me") or case.operation.path in ACCOUNT_CREATES:
            token = _account_token(case)
        elif "campaign_id" in params:
            token = data["campaign"]["token"]
        else:
            game = _seeded_game(params.get("game_id", "")) or _game_for(
                case.operation.path, 0, secured=True
            )
            token = _token_for(case.operation.path, game, _draw(case, "seat"))
        if token:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


def _short(wait):
    """Return a valid ``wait`` (a number from 0 to 30) cut to half a second; anything
    else (absent, out of range, not a number: what a negative case tests) unchanged."""
    try:
        seconds = float(wait)
    except (TypeError, ValueError):
        return wait
    return min(seconds, 0.5) if 0 <= seconds <= 30 else wait


@schemathesis.hook
def map_case(context, case):
    """Point a valid generated case at a real game or campaign (see the module)."""
    path = case.operation.path
    if path.endswith(("/events", "/messages")) and case.query and "wait" in case.query:
        case.query = {**case.query, "wait": _short(case.query.get("wait"))}
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return case
    params = case.path_parameters or {}
    draw = _draw(case, "target")
    if draw >= 75:
        return case
    if "campaign_id" in params:
        params["campaign_id"] = fixtures()["campaign"]["id"]
    elif "token_id" in params:
        spares = fixtures()["account"]["spare_tokens"]
        params["token_id"] = spares[draw % len(spares)]
    elif "game_id" in params:
        game = _game_for(path, draw, bool(case.operation.definition.raw.get("security")))
        params["game_id"] = game["id"]
        token = _token_for(path, game, draw)
        if path.endswith("/moves") and token and draw % 3 == 0:
            case.body = _legal_move(game["id"], token) or case.body
    return case
