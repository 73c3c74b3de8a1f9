"""The front's bridge to the Flask app: a request in one thread hop, its answer in one.

a2wsgi's ``WSGIMiddleware`` (what the front used before, issue 26) hands every message
across threads on its own: the request body is read from the worker thread through
``run_coroutine_threadsafe`` and the response start, each body chunk and the final empty
chunk each go back the same way, each a round trip through the event loop that the worker
thread waits on. Under the side-by-side load (issue 26) that was a fifth of a web
process's samples, about four loop wake-ups and eight thread switches a request. Here
the front has already read the body (:mod:`arbiter.bodies`), so the Flask app runs whole
in a pool thread on a ``BytesIO`` of it, its answer (start and body, joined) is returned
with the thread's result, and the loop sends it: one hop each way. No Flask route streams
(the long-lived streams are the front's own); a body announced over its limit, which the
front leaves unread, is still read on demand as a2wsgi does, so Flask can refuse it with
413 before reading it.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import Body, build_environ


class Bridge:
    """An ASGI app that runs the WSGI ``app`` in a pool of ``workers`` threads."""

    def __init__(self, app, workers: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(thread_name_prefix="WSGI", max_workers=workers)

    async def __call__(self, scope: dict, receive, send, body: bytes | None = None) -> None:
        """Answer the HTTP request ``scope``; ``body`` is its whole body when the
        caller read it already (b"" for none), None to read it through ``receive``
        only as the app asks for it."""
        loop = asyncio.get_running_loop()
        stream = io.BytesIO(body) if body is not None else Body(loop, receive)
        environ = build_environ(scope, stream)
        context = contextvars.copy_context()
        status, headers, chunks = await loop.run_in_executor(
            self.executor, context.run, self.run, environ
        )
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": False})

    def run(self, environ: dict) -> tuple[int, list, list]:
        """Call the WSGI app (in a pool thread); return its status, headers and body."""
        started: list = []
        chunks: list[bytes] = []

        def start_response(status: str, headers: list, exc_info=None):
            # nothing is sent before the app returns: an error page (exc_info) may
            # always replace what was started
            started[:] = [
                int(status.split(" ", 1)[0]),
                [
                    (name.strip().encode("latin-1").lower(), value.strip().encode("latin-1"))
                    for name, value in headers
                ],
            ]
            return chunks.append

        iterable = self.app(environ, start_response)
        try:
            chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        return started[0], started[1], chunks
