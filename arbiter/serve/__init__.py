"""The web server's side of the contract: the errors uvicorn answers itself are
problem details too, and no client holds a connection it does not use.

uvicorn answers a request it cannot parse without calling the app, with a
``text/plain`` 400. :class:`ProblemHttpToolsProtocol` is uvicorn's httptools protocol
(the C parser llhttp: on the h11 protocol it replaced, which parsed and framed in
Python, a request cost 0.2-0.3 ms more server CPU; ``bench/README.md``)
answering those as ``application/problem+json`` (400 ``bad-request``), refusing a
request line or head over its limit (414 ``uri-too-long``, 431 ``headers-too-large``),
and closing the connection as uvicorn does (:mod:`arbiter.serve.refusals`). The
Procfile selects it with ``--http arbiter.serve:ProblemHttpToolsProtocol``.

uvicorn gives a request head all the time its client takes, and a new connection that
sends nothing stays open (issue 22: 500 such connections were held for minutes). So
the protocol also bounds unfinished connections (idle, or still sending a head or a
body: :class:`Pending`): a head must be complete within ``HEAD_TIMEOUT_SECONDS`` (408
``head-too-slow``), an idle kept-alive connection closes after ``KEEPALIVE_SECONDS``,
and one client address (an IPv6 /64) holds at most ``CLIENT_MAX_PENDING`` of them per
process, ``WEB_MAX_PENDING`` in all: past either, the oldest that have been unfinished
for ``SLOW_AFTER_SECONDS`` are closed (429 ``too-many-connections`` when a request had
begun), so that a newcomer, an honest client's as much as anyone's, is always served.
Connections being answered (streams, long-polls, Flask) do not count, nor those of a
trusted proxy (uvicorn's ``--forwarded-allow-ips``, the Procfile's
``FORWARDED_ALLOW_IPS``), which buffers its clients itself
(:mod:`arbiter.serve.pending`). The body's own pace is the ASGI front's
(:mod:`arbiter.bodies`).

It also offers the streams a way past the ASGI ``send`` (:data:`DIRECT_WRITE`): the
stream hub writes one event's bytes to thousands of connections at once, and a write
straight to each connection's transport costs a system call, where a coroutine woken
per reader to ``await send`` costs several times that (see :mod:`arbiter.streams.hub`
and :mod:`arbiter.serve.direct`).
"""

from __future__ import annotations

from arbiter.serve.direct import DIRECT_WRITE, DirectWriter
from arbiter.serve.pending import Pending, client_key, limits, pending_of, trusts
from arbiter.serve.protocol import ProblemHttpToolsProtocol
from arbiter.serve.refusals import SERVER_PROBLEMS, problem_json

__all__ = [
    "DIRECT_WRITE",
    "SERVER_PROBLEMS",
    "DirectWriter",
    "Pending",
    "ProblemHttpToolsProtocol",
    "client_key",
    "limits",
    "pending_of",
    "problem_json",
    "trusts",
]
