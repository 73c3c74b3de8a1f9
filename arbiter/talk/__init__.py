"""The table talk of a game: messages on three channels, and private notes.

A game's talk is its own append-only log beside the move log (:mod:`arbiter.models.talk`),
with its own counter ``n``: a message never changes the game's ``version`` (a player's
``expected_version`` stays good while others chat; see docs/guides/messages.md). Each
entry is read through the same rules whatever the channel (REST, the page, mail):
:mod:`arbiter.talk.readers` says who may read and who may post, :mod:`.messages` posts,
hides and reports, :mod:`.mutes` keeps an account's mutes, :mod:`.notes` a seat's
notes, :mod:`.mailed` the section a turn mail or digest quotes.

This context sits below ``games`` (whose turn mails call :mod:`.mailed`) and above
``accounts``; it imports no Flask and no channel.
"""
