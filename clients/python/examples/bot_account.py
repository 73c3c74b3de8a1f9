"""A bot account's program: follow /v1/me/stream and play every game the bot is seated
in with random legal moves. Usage: python bot_account.py --token arb_... [--url URL]
[--games N] (the token of a bot account, from POST /v1/me/bots; N: stop after N ended)
"""

import argparse
import random

from arbiter_client import Client, Conflict, StreamReplaced, random_move

cli = argparse.ArgumentParser(description="Play a bot account's games with random moves.")
cli.add_argument("--url", default="http://127.0.0.1:8000")
cli.add_argument("--token", required=True, help="the bot account's token (arb_...)")
cli.add_argument("--games", type=int, default=0, help="stop after N games ended (0: never)")
cli.add_argument("--seed", type=int, help="seed of the bot's choices")
args = cli.parse_args()
rng = random.Random(args.seed)

with Client(args.url, args.token) as bot:
    print(f"playing as {bot.account.me()['display_name']}", flush=True)
    ended = 0
    # one stream for all the bot's games; it starts with every game waiting for the bot
    try:
        for event in bot.events.mine():
            if event["kind"] == "game-over":
                ended += 1
                print(f"game {event['game']} over: {event['payload']['result']['reason']}")
                if ended == args.games:
                    break
            if event["seq"] < event["version"]:
                continue  # more events of this game are on their way: act on the newest
            legal = bot.moves.legal(event["game"])  # the bot's seat's moves, if it owes one
            if (move := random_move(legal, rng)) is not None:
                try:  # an Idempotency-Key goes with it (the client adds one)
                    bot.moves.play(event["game"], move, expected_version=legal["version"])
                except Conflict:  # the game moved on meanwhile: the stream brings the news
                    pass
    except StreamReplaced:  # the token opened another stream (one per token)
        print("another stream of this token took over; stopping")
