"""Example bot: create a game of ENGINE over HTTP and play its own seats with random
legal moves, following the game's event stream until the game is over. Usage:
python bot.py ENGINE [--url URL] [--players N] [--opponent '{"name": ...}' (a seat not its own)]
"""

import argparse
import json
import random

from arbiter_client import Client, Conflict, random_move

cli = argparse.ArgumentParser(description="Play a game of ENGINE with random legal moves.")
cli.add_argument("engine")
cli.add_argument("--url", default="http://127.0.0.1:8000")
cli.add_argument("--players", type=int, default=2, help="how many seats the bot plays")
cli.add_argument("--opponent", type=json.loads, action="append", default=[], help="another seat")
cli.add_argument("--seed", type=int, help="seed of the bot's choices")
args = cli.parse_args()
rng = random.Random(args.seed)

with Client(args.url) as arbiter:
    names = [f"Bot {i + 1}" for i in range(args.players)]
    game = arbiter.games.create(args.engine, names + args.opponent)
    mine = [arbiter.with_token(seat["token"]) for seat in game["seats"][: args.players]]
    print(f"playing {args.engine} game {game['id']}")
    for event in arbiter.events.stream(game["id"]):  # ends once the game is over
        if event["seq"] < event["version"]:
            continue  # more events are on their way: act on the newest only
        for seat in mine:
            legal = seat.moves.legal(game["id"])
            move = random_move(legal, rng)
            if move is None:
                continue  # this seat owes no move now
            try:
                seat.moves.play(game["id"], move, expected_version=legal["version"])
            except Conflict:  # the game moved on meanwhile: the stream brings the news
                pass
    result = arbiter.games.get(game["id"])["result"] or {}
    print(f"game over ({result.get('reason')}): scores {result.get('scores')}")
