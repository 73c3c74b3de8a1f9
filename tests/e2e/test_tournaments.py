"""Whole tournaments on real parts (issue 11, "Checked by"): a Swiss of 9 players over
4 rounds of Dark Horse at 3-player tables and a round robin of 5 players of Space
Worm, run at once through the API against the Procfile's processes (uvicorn web, the
Celery workers, beat), once on the embedded default (SQLite, filesystem broker) and once
on PostgreSQL + Redis (skipped with a reason without ``ARBITER_TEST_*`` URLs).

Every player is an account signed up through the mailed link (a real SMTP server on
loopback); every game is played to its end by random legal moves, each seat with its
entrant's personal token; rounds are paired by the worker when their last game ends.
Checks: no pair meets twice in the Swiss where a round without a repeat existed, every
pair meets exactly once in the round robin, every player has the right number of
games and byes, the standings equal those recomputed here from the game records
(scoring and tie-breaks as ``notes/TOURNAMENTS.md`` defines them, computed
independently of ``arbiter/tournaments``), and the tournament record verifies (each
game's seed and replay, the pairings, the results, the standings), also with
``arbiter verify``. Every account registers a web hook for ``round_paired``,
``tournament_over`` and ``game_over`` at one shared receiver on loopback: every event
arrives there exactly once, and its signature verifies with the secret of an account
it concerns.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from urllib.parse import parse_qs, urlparse

import pytest
import requests
import time_machine
from standardwebhooks import Webhook as Verifier

from arbiter.verify_tournament import verify_tournament
from engines import move_parts
from tests import processes
from tests.conftest import REDIS_URL, need
from tests.webhook_receiver import ReceiverServer

HOOK_EVENTS = ["round_paired", "tournament_over", "game_over"]
"""What every account's web hook asks for (not ``turn``: hundreds of them)."""

ROUND_SECONDS = 120
"""How long the test waits for the worker to pair the next round."""

GAME_SECONDS = 300
"""How long one game may take to play out."""


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def ok(answer: requests.Response, status: int = 200) -> dict:
    assert answer.status_code == status, (answer.status_code, answer.text)
    return answer.json()


def sign_up(url: str, inbox, count: int) -> list[str]:
    """Sign ``count`` new accounts up through their mailed links; return the tokens."""
    tag = uuid.uuid4().hex[:6]
    emails = [f"player{i}-{tag}@example.org" for i in range(count)]
    for i, email in enumerate(emails):
        answer = requests.post(
            f"{url}/v1/auth/links", timeout=30, json={"email": email, "display_name": f"P{i}-{tag}"}
        )
        assert answer.status_code == 202, answer.text
    tokens = []
    for email in emails:
        deadline = time.monotonic() + 60
        while not inbox.to(email):
            assert time.monotonic() < deadline, f"no sign-in mail to {email}"
            time.sleep(0.2)
        body = inbox.to(email)[-1].get_body(("plain",)).get_content()
        link = re.search(r"https?://\S+/v1/auth/confirm\?\S+", body).group(0)
        query = parse_qs(urlparse(link).query)
        session = ok(
            requests.post(
                f"{url}/v1/auth/sessions",
                timeout=30,
                json={"email": query["email"][0], "token": query["token"][0]},
            ),
            201,
        )
        tokens.append(session["token"]["token"])
    return tokens


def play_game(url: str, game_id: str, token_of_seat: list[str], seed: int) -> None:
    """Play one game to its end by random legal moves (each seat with its entrant's
    personal token)."""
    http, rng = requests.Session(), random.Random(seed)
    started = time.monotonic()
    while time.monotonic() - started < GAME_SECONDS:
        game = ok(http.get(f"{url}/v1/games/{game_id}", timeout=30))
        if game["status"] == "over":
            return
        if not game["to_act"]:
            http.get(
                f"{url}/v1/games/{game_id}/events",
                timeout=30,
                params={"after": game["version"], "wait": 2},
            )
            continue
        seat = rng.choice(game["to_act"])
        auth = bearer(token_of_seat[seat])
        legal = http.get(f"{url}/v1/games/{game_id}/legal-moves", headers=auth, timeout=30)
        if legal.status_code == 409:
            continue
        legal = ok(legal)
        move = move_parts.pick(legal, rng)
        answer = http.post(
            f"{url}/v1/games/{game_id}/moves",
            headers=auth,
            timeout=30,
            json={"move": move, "expected_version": legal["version"]},
        )
        assert answer.status_code in (201, 409), answer.text  # 409: raced the roll
    raise AssertionError(f"game {game_id} did not end within {GAME_SECONDS} s")


def run_tournament(
    url: str, organiser: str, tokens: list[str], settings: dict, pool: ThreadPoolExecutor
) -> tuple[dict, list[dict], dict]:
    """Create, fill, start and play a whole tournament; return it, its rounds and
    ``{entry id: token}``."""
    t = ok(
        requests.post(
            f"{url}/v1/tournaments", json=settings, headers=bearer(organiser), timeout=30
        ),
        201,
    )
    base = f"{url}/v1/tournaments/{t['id']}"
    token_of = {}
    for token in tokens:
        entry = ok(requests.post(f"{base}/entries", headers=bearer(token), timeout=30), 201)
        token_of[entry["id"]] = token
    ok(requests.post(f"{base}/start", headers=bearer(organiser), timeout=30))
    rounds, number = [], 1
    while True:
        rnd = ok(requests.get(f"{base}/rounds/{number}", timeout=30))
        futures = [
            pool.submit(
                play_game,
                url,
                table["game"],
                [token_of[p["entry"]] for p in table["players"]],
                number * 100 + table["table"],
            )
            for table in rnd["tables"]
        ]
        for future in futures:
            future.result()
        rounds.append(rnd)
        deadline = time.monotonic() + ROUND_SECONDS
        while True:
            t = ok(requests.get(base, timeout=30))
            if t["status"] == "over" or t["round"] > number:
                break
            assert time.monotonic() < deadline, f"round {number + 1} was never paired"
            time.sleep(0.5)
        if t["status"] == "over":
            return t, rounds, token_of
        number += 1


# --------------------------------------------------------------------------- checks


def meetings(rounds: list[dict]) -> Counter:
    """Return how often each pair of entries sat at one table."""
    met = Counter()
    for rnd in rounds:
        for table in rnd["tables"]:
            for pair in combinations(sorted(p["entry"] for p in table["players"]), 2):
                met[pair] += 1
    return met


def repeat_free_tabling_exists(players: list[str], size: int, met: set) -> bool:
    """True when ``players`` can be seated at tables of ``size`` with no pair in
    ``met`` (a search over every partition)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for others in combinations(rest, size - 1):
        table = (first, *others)
        if any(tuple(sorted(p)) in met for p in combinations(table, 2)):
            continue
        if repeat_free_tabling_exists([p for p in rest if p not in others], size, met):
            return True
    return False


def check_swiss_repeats(rounds: list[dict], size: int) -> None:
    """No pair meets twice in a round where a round without a repeat was possible."""
    met: set = set()
    for rnd in rounds:
        seated = sorted(p["entry"] for t in rnd["tables"] for p in t["players"])
        pairs = [
            tuple(sorted(p))
            for t in rnd["tables"]
            for p in combinations([x["entry"] for x in t["players"]], 2)
        ]
        if repeat_free_tabling_exists(seated, size, met):
            assert not met.intersection(pairs), f"round {rnd['number']} repeats a pairing"
        met.update(pairs)


def places(ranking: list[list[int]], players: int) -> list[int]:
    """Competition places (1 = first) from an engine ranking."""
    out, ranked = [players] * players, 0
    for group in ranking:
        for seat in group:
            out[seat] = ranked + 1
        ranked += len(group)
    return out


def expected_standings(
    entries: list[str],
    games: list[tuple[list[str], list[int]]],
    byes: Counter,
    scoring: dict,
    fmt: str = "swiss",
) -> list[dict]:
    """Recompute the standings from the games' players and places: tied places share
    the average of the points of the places they span; a bye scores ``bye_points`` in
    a Swiss and nothing in a round robin (its rest round); Buchholz sums the
    table-mates' totals, Sonneborn-Berger my points in a game times its table-mates'
    totals, head-to-head the pairwise score (1 above, 1/2 level, 0 below) against
    table-mates tied with me on points, wins the games where I placed above every
    table-mate. A Swiss sorts by points, Buchholz, Sonneborn-Berger, head-to-head; a
    round robin by points, head-to-head, wins, Sonneborn-Berger (no Buchholz); ties on
    every key share a rank (1, 2, 2, 4) and are listed in ``entries``' order (the
    pairing numbers)."""
    table_points = scoring["place_points"]
    per_game = []
    for players, placed in games:
        got = {}
        for p, place in zip(players, placed):
            span = sum(1 for q in placed if q == place)
            got[p] = sum(table_points[place - 1 : place - 1 + span]) / span
        per_game.append(got)
    bye_value = scoring["bye_points"] if fmt == "swiss" else 0.0
    total = {e: byes[e] * bye_value for e in entries}
    played = Counter()
    for got in per_game:
        for p, pts in got.items():
            total[p] += pts
            played[p] += 1
    rows = []
    for e in entries:
        buchholz = sb = h2h = 0.0
        wins = 0
        for (players, placed), got in zip(games, per_game):
            if e not in players:
                continue
            mine = placed[players.index(e)]
            mates = [p for p in players if p != e]
            buchholz += sum(total[p] for p in mates)
            sb += got[e] * sum(total[p] for p in mates)
            wins += all(mine < placed[players.index(p)] for p in mates)
            for p in mates:
                if abs(total[p] - total[e]) < 1e-9:
                    theirs = placed[players.index(p)]
                    h2h += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        rows.append(
            {
                "entry": e,
                "points": total[e],
                "games": played[e],
                "byes": byes[e],
                "wins": wins,
                "buchholz": buchholz if fmt == "swiss" else None,
                "sonneborn_berger": sb,
                "head_to_head": h2h,
            }
        )
    order = ("buchholz", "sonneborn_berger", "head_to_head")
    if fmt != "swiss":
        order = ("head_to_head", "wins", "sonneborn_berger")
    keys = {r["entry"]: tuple(round(r[k], 9) for k in ("points", *order)) for r in rows}
    rows.sort(key=lambda r: tuple(-v for v in keys[r["entry"]]))  # stable: entries' order
    for i, row in enumerate(rows):  # equal on every key: a shared rank (1, 2, 2, 4)
        same = i and keys[row["entry"]] == keys[rows[i - 1]["entry"]]
        row["rank"] = rows[i - 1]["rank"] if same else i + 1
    return rows


def check_standings(url: str, t: dict, record: dict) -> list[dict]:
    """The API's standings are the ones recomputed from the game records."""
    paired = {}
    byes = Counter()
    entries = [e["id"] for e in record["entries"]]
    for event in record["events"]:
        if event["kind"] == "round-paired":
            byes.update(event["payload"]["byes"])
            entries = event["payload"].get("seeding", entries)
            for table in event["payload"]["tables"]:
                paired[table["game"]] = table["players"]
        if event["kind"] == "tournament-started" and t["format"] == "round_robin":
            entries = event["payload"]["entries"]
            started = entries
    if t["format"] == "round_robin":
        entries = started
    games = [
        (paired[g["id"]], places(g["result"]["ranking"], len(paired[g["id"]])))
        for g in record["games"]
    ]
    want = expected_standings(entries, games, byes, t["scoring"], t["format"])
    got = ok(requests.get(f"{url}/v1/tournaments/{t['id']}/standings", timeout=30))
    got = got["standings"]
    assert [r["entry"] for r in got] == [r["entry"] for r in want]
    for mine, theirs in zip(want, got):
        for key, value in mine.items():
            expected = value if value is None else pytest.approx(value)
            assert theirs[key] == expected, (key, mine, theirs)
    csv = requests.get(
        f"{url}/v1/tournaments/{t['id']}/standings", headers={"Accept": "text/csv"}, timeout=30
    )
    assert csv.headers["Content-Type"].startswith("text/csv")
    assert len(csv.text.splitlines()) == len(entries) + 1
    return got


def check_record(url: str, t: dict, tmp_path) -> dict:
    """The tournament's record verifies, here and with ``arbiter verify``."""
    record = ok(requests.get(f"{url}/v1/tournaments/{t['id']}/record", timeout=60))
    verdict = verify_tournament(record)
    assert verdict.ok, verdict.mismatch
    path = tmp_path / f"tournament-{t['id']}.json"
    path.write_text(json.dumps(record))
    cli = subprocess.run(
        [processes.BIN / "arbiter", "verify", str(path)], capture_output=True, text=True
    )
    assert cli.returncode == 0, cli.stdout + cli.stderr
    return record


def register_hooks(url: str, receiver_url: str, tokens: list[str]) -> dict[str, str]:
    """Register one web hook per account at the receiver; return ``{token: secret}``."""
    secrets = {}
    for token in tokens:
        hook = ok(
            requests.post(
                f"{url}/v1/me/webhooks",
                headers=bearer(token),
                timeout=30,
                json={"url": receiver_url, "events": HOOK_EVENTS},
            ),
            201,
        )
        secrets[token] = hook["secret"]
    return secrets


def check_webhooks(
    receiver, expected: int, organiser_secret: str, secret_of_entry: dict[str, str]
) -> None:
    """Each event arrived once (one URL shared by every account) and verifies."""
    got = receiver.wait_for(expected, seconds=120)
    time.sleep(1.0)  # a duplicate would arrive now
    got = receiver.ok()
    ids = [r.headers["webhook-id"] for r in got]
    assert len(ids) == len(set(ids)) == expected, (len(ids), len(set(ids)), expected)
    kinds = Counter(json.loads(r.body)["type"] for r in got)
    assert set(kinds) == set(HOOK_EVENTS)
    for r in got:
        # verified as the receiver would on arrival (the library refuses a timestamp
        # more than 5 minutes old, and the first hooks arrived minutes ago)
        with time_machine.travel(r.at, tick=False):
            Verifier(organiser_secret).verify(r.body, r.headers)  # concerned by every one
            body = json.loads(r.body)
            if body["type"] == "round_paired":
                seated = body["data"]["tables"][0]["players"][0]
                Verifier(secret_of_entry[seated]).verify(r.body, r.headers)


def whole_tournaments(url: str, inbox, tmp_path) -> None:
    """Run the Swiss and the round robin at once and check both."""
    with ReceiverServer() as receiver:
        _whole_tournaments(url, inbox, tmp_path, receiver)


def _whole_tournaments(url: str, inbox, tmp_path, receiver) -> None:
    organiser, *tokens = sign_up(url, inbox, 1 + 9)
    secrets = register_hooks(url, receiver.url, [organiser, *tokens])
    swiss_settings = {
        "name": "Dark Horse Swiss",
        "engine": "dark-horse",
        "table_size": 3,
        "format": "swiss",
        "rounds": 4,
    }
    robin_settings = {
        "name": "Space Worm round robin",
        "engine": "space-worm",
        "table_size": 2,
        "format": "round_robin",
    }
    with ThreadPoolExecutor(max_workers=8) as pool:
        swiss_run = pool.submit(run_tournament, url, organiser, tokens, swiss_settings, pool)
        robin_run = pool.submit(run_tournament, url, organiser, tokens[:5], robin_settings, pool)
        swiss, swiss_rounds, swiss_entries = swiss_run.result()
        robin, robin_rounds, robin_entries = robin_run.result()

    assert swiss["status"] == "over" and len(swiss_rounds) == 4
    check_swiss_repeats(swiss_rounds, 3)
    swiss_record = check_record(url, swiss, tmp_path)
    for row in check_standings(url, swiss, swiss_record):
        assert (row["games"], row["byes"]) == (4, 0), row
    assert len(swiss_record["games"]) == 12

    assert robin["status"] == "over" and len(robin_rounds) == 5
    met = meetings(robin_rounds)
    assert len(met) == 10 and set(met.values()) == {1}  # every pair exactly once
    robin_record = check_record(url, robin, tmp_path)
    for row in check_standings(url, robin, robin_record):
        assert (row["games"], row["byes"]) == (4, 1), row

    secret_of_entry = {e: secrets[t] for e, t in {**swiss_entries, **robin_entries}.items()}
    games = len(swiss_record["games"]) + len(robin_record["games"])
    check_webhooks(receiver, 4 + 5 + 2 + games, secrets[organiser], secret_of_entry)


@pytest.fixture
def stack(start_stack, smtp, monkeypatch):
    """Start web, worker, mailer and beat with mail to the loopback SMTP server, web
    hooks allowed to reach the receiver on loopback over http."""
    monkeypatch.setenv("WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8,::1/128")
    monkeypatch.setenv("WEBHOOK_ALLOW_HTTP", "1")
    smtp_url, inbox = smtp
    return (lambda database_url, broker_url: start_stack(database_url, broker_url, smtp_url)), inbox


@pytest.mark.soak  # make test runs the other backend; make soak both
def test_whole_tournaments_on_the_embedded_default(stack, tmp_path):
    start, inbox = stack
    whole_tournaments(start(None, None), inbox, tmp_path)


def test_whole_tournaments_on_postgres_and_redis(stack, tmp_path, postgres_url):
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    start, inbox = stack
    whole_tournaments(start(postgres_url, broker), inbox, tmp_path)
