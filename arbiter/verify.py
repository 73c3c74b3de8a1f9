"""Checking a finished game's record: seed, every roll and shuffle, the replay.

``verify(record)`` needs nothing but the record (as served by
``GET /v1/games/{id}/record``) and the engines: anyone can run it with
``arbiter verify RECORD.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import engines
from arbiter import fairness
from arbiter.games.agreements import aborted_result
from arbiter.games.events import undone_seqs
from arbiter.games.transition import rank_resigned_last, resignation_result
from engines.base import Chance, Engine, EngineError, Input, Over, apply, shown


@dataclass
class Verdict:
    """The result of a verification: ``ok``, the first mismatch (if any), and counts."""

    ok: bool
    mismatch: str | None = None
    rolls: int = 0
    moves: int = 0
    notes: list[str] = field(default_factory=list)


class Mismatch(Exception):
    """A record that does not check out; the message says where and how."""


def verify(record: dict) -> Verdict:
    """Re-derive every chance outcome from the revealed seed and replay the game.

    :returns: a :class:`Verdict`; ``ok`` is False with the first mismatch otherwise.
    """
    verdict = Verdict(ok=True)
    try:
        _check(record, verdict)
    except Mismatch as err:
        verdict.ok, verdict.mismatch = False, str(err)
    except KeyError as err:
        verdict.ok, verdict.mismatch = False, f"the record has no {err.args[0]!s} field"
    except (EngineError, TypeError, ValueError) as err:
        verdict.ok, verdict.mismatch = False, f"the record does not replay: {err}"
    return verdict


def _check(record: dict, verdict: Verdict) -> None:
    seed = record["seed"]
    if fairness.commitment(seed) != record["seed_commitment"]:
        raise Mismatch("the revealed seed does not hash to the published commitment")
    _check_seed_revealed(record["events"], seed)
    engine = _engine_of(record, verdict)
    same_rules = engine.version == record.get("engine_version")  # else texts may differ
    players = len(record["players"])
    state = engine.setup(players, engine.load_options(players, record["options"]))
    resigned: set[int] = set()
    held: set[int] = set()  # seats the autopilot held (the result lists them)
    result = None
    undone = undone_seqs(record["events"])
    inputs: list[dict] = []  # the moves and outcomes not yet taken back, in order
    for expected_seq, event in enumerate(record["events"], start=1):
        if event["seq"] != expected_seq:
            raise Mismatch(f"event {expected_seq} is missing (found seq {event['seq']})")
        kind, payload = event["kind"], event["payload"]
        if kind in ("move", "chance"):
            inputs.append(event)
        if kind == "moves-undone":
            _check_undone(record["events"], inputs, event)
        elif kind == "move" and event["seq"] in undone:
            verdict.moves += 1  # taken back by agreement: not part of the fold
        elif kind == "chance":
            prompt = engine.prompt(state)
            if not isinstance(prompt, Chance):
                raise Mismatch(
                    f"seq {event['seq']}: a chance outcome where the game waited for no chance"
                )
            derived = fairness.derive(prompt.spec, seed, event["seq"])
            if derived != payload["outcome"]:
                raise Mismatch(
                    f"seq {event['seq']}: logged outcome {payload['outcome']} but "
                    f"the seed gives {derived}"
                )
            if same_rules:
                _check_outcome_text(engine, prompt.spec, derived, event)
            state = engine.resolve(state, derived)
            verdict.rolls += 1
        elif kind == "move":
            if "text" in payload and payload["text"] != engine.describe(payload["move"]):
                raise Mismatch(
                    f"seq {event['seq']}: the move's text {payload['text']!r} is "
                    "not the move it records"
                )
            state = apply(engine, state, Input("move", event["seat"], payload["move"]))
            verdict.moves += 1
        elif kind == "resigned":
            resigned.add(event["seat"])
        elif kind == "autopilot-on":
            held.add(event["seat"])
        elif kind == "game-over":
            result = payload["result"]
    if (result or {}).get("reason") == "aborted":
        _check_aborted(record["events"], players, resigned)
    _check_result(engine, state, players, resigned, result, record.get("result"), held)


def _check_aborted(events: list, players: int, resigned: set[int]) -> None:
    """Check that every player still in the game agreed to end it aborted.

    :raises Mismatch: no abort was proposed, or a player did not accept it.
    """
    proposed = [e for e in events if e["kind"] == "abort-proposed"]
    if not proposed:
        raise Mismatch("the game ended aborted, but nobody proposed to abort it")
    last = proposed[-1]
    accepted = {
        e["seat"]
        for e in events
        if e["kind"] == "abort-accepted" and e["payload"].get("request") == last["seq"]
    }
    missing = set(range(players)) - resigned - {last["seat"]} - accepted
    if missing:
        raise Mismatch(f"the game ended aborted without the agreement of seats {sorted(missing)}")


def _check_outcome_text(engine: Engine, spec, outcome, event: dict) -> None:
    """Check that a chance event's ``text`` (what players read in the log, mails and
    pages) says what its outcome is (issue 22, item 14).

    :raises Mismatch: the text is not what the engine writes for that outcome.
    """
    payload = event["payload"]
    if "text" not in payload:
        return
    expected = engine.describe_outcome(dict(spec), outcome)
    if payload["text"] != expected:
        raise Mismatch(
            f"seq {event['seq']}: the roll's text {shown(payload['text'], 100)} is not "
            f"what its outcome says ({shown(expected, 100)})"
        )


def _engine_of(record: dict, verdict: Verdict) -> Engine:
    """Return the engine playing the rules of the record's engine version; today's
    rules, with a note, when this arbiter no longer plays that version.

    :raises Mismatch: the record names an engine this arbiter does not have.
    """
    name, version = record["engine"], record.get("engine_version")
    try:
        current = engines.get(name)
    except engines.UnknownEngine:
        raise Mismatch(
            f"this record is for engine {shown(name)}, which this arbiter does "
            f"not have (it has {', '.join(engines.ENGINE_MODULES)})"
        ) from None
    engine = current.at_version(version)
    if engine is None:
        verdict.notes.append(
            f"recorded with {current.id} version {shown(version)}, which "
            f"this arbiter no longer plays; checked with version "
            f"{current.version}"
        )
        return current
    return engine


def _check_seed_revealed(events: list, seed: str) -> None:
    """Check that the log reveals the seed the record gives.

    :raises Mismatch: no ``seed-revealed`` event, or one naming another seed.
    """
    revealed = [e for e in events if isinstance(e, dict) and e.get("kind") == "seed-revealed"]
    if not revealed:
        raise Mismatch(
            "the record has no seed-revealed event: its log never reveals the seed it gives"
        )
    for event in revealed:
        payload = event.get("payload")
        logged = payload.get("seed") if isinstance(payload, dict) else None
        if logged != seed:
            raise Mismatch(
                f"seq {event.get('seq')}: the seed-revealed event names seed "
                f"{shown(logged, 100)}, not the record's seed {shown(seed, 100)}"
            )


def _check_undone(events: list, inputs: list[dict], marker: dict) -> None:
    """Check an agreed undo (issue 24, item 3): its marker takes back exactly the last
    input not yet taken back, a move of the seat that asked, named by its request.

    :raises Mismatch: the marker takes back anything else (a roll, another seat's
        move, a move that was not the last one).
    """
    where = f"seq {marker['seq']}"
    seqs = marker["payload"].get("seqs")
    last = inputs[-1] if inputs else None
    if last is None or seqs != [last["seq"]] or last["kind"] != "move":
        raise Mismatch(f"{where}: an undo may take back only the last move, not {seqs}")
    number = marker["payload"].get("request")
    asked = events[number - 1] if isinstance(number, int) and 0 < number <= len(events) else {}
    if asked.get("kind") != "undo-requested" or asked.get("seat") != last["seat"]:
        raise Mismatch(f"{where}: the undone move was not asked back by its own player")
    if asked.get("payload", {}).get("move_seq") != last["seq"]:
        raise Mismatch(f"{where}: the undo request named another move")
    inputs.pop()


def _check_result(engine, state, players, resigned, logged, summary, held=()) -> None:
    if logged is None:
        raise Mismatch("the record has no game-over event")
    prompt = engine.prompt(state)
    if logged.get("reason") == "aborted":
        expected = aborted_result(players)
    elif isinstance(prompt, Over):
        expected = rank_resigned_last(dict(prompt.result), resigned)
    else:
        expected = resignation_result(players, resigned)
    if held:
        expected = {**expected, "autopilot": sorted(held)}
    if _plain(expected) != _plain(logged):
        raise Mismatch(f"the replay ends with {expected}, the log says {logged}")
    if summary is not None and _plain(summary) != _plain(logged):
        raise Mismatch("the record's result differs from its game-over event")


def _plain(value):
    """Normalise tuples to lists so JSON and Python values compare equal."""
    return json.loads(json.dumps(value))
