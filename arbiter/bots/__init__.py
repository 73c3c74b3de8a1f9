"""Built-in players: bots that choose a move for one seat from that seat's view only.

Pure code over the engine interface (``engines.base.Engine``): no database, no Flask, no
clock. The service (``arbiter.games``) asks :func:`arbiter.bots.players.choose` for a bot
seat's move and plays it through the same write path as a person's.
"""
