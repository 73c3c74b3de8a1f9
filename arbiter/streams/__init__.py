"""Event streams: Server-Sent Events per game, ndjson per account, and the long-poll,
served from committed events without a thread per waiting reader.

- :mod:`arbiter.streams.publish`: after every commit, "game G is at version V" is
  published (Redis pub/sub in production, in-process listeners on the embedded
  default).
- :mod:`arbiter.streams.hub`: in each web process, one asyncio hub keeps a feed per
  game that somebody watches; a notice makes it read the new events once (one query,
  in a thread), render them once per audience (spectator, each seat) and hand the
  bytes to every reader: written straight to its connection when the server offers
  it (:class:`arbiter.serve.DirectWriter`), else into its bounded queue; a reader too
  far behind is cut off (it resumes with Last-Event-ID). A poll of the watched games'
  versions catches notices that were lost; one ticker sends the keep-alives.
- :mod:`arbiter.streams.wire`: the text of an SSE message and of an ndjson line.
- :mod:`arbiter.streams.asgi`: the ASGI application that serves the streams and the
  long-poll itself and hands every other request to the Flask app (through
  :mod:`arbiter.streams.bridge`'s thread pool: one thread hop each way).
"""
