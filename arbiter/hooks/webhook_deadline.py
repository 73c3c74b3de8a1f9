"""A wall-clock limit on one web hook delivery attempt, however the receiver behaves.

requests and urllib3 time out each connect and each read (``WEBHOOK_TIMEOUT_SECONDS``),
never a whole request: urllib3's ``Timeout`` documentation says the read and total
timeouts "only measure the time between read operations", so a server that sends one
byte every fifteen seconds passes a 20 s timeout, and requests' maintainers say a total
("wall clock") timeout is not something requests provides (psf/requests#4276).
httpx's timeouts are per operation as well; its maintainers point to ``asyncio``
cancellation for a total one, which the synchronous client cannot have.

So an attempt runs inside a :class:`Deadline` (``with Deadline(seconds):``):

- name resolution waits at most what is left (:func:`resolve_within`; an unanswered
  lookup is left to finish in its own thread);
- each connect gets at most what is left, and none starts once the time is up;
- every socket the attempt connects is watched (:meth:`Deadline.watch`, called by the
  guarded connections of :mod:`arbiter.hooks.webhook_urls`): when the time is up a
  timer thread shuts each one down (``shutdown(SHUT_RDWR)`` on a duplicate of its
  descriptor), which ends whatever the attempt was blocked in (a TLS handshake, sending
  the body, reading the status line, headers or body, one byte at a time or none) with
  an error at once.

The duplicates belong to the deadline and are closed when it ends, so a shutdown never
reaches a descriptor number the process has since given to another connection.
"""

from __future__ import annotations

import contextvars
import ipaddress
import math
import socket
import threading
import time

_current: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar(
    "webhook_deadline", default=None
)


class DeadlineExpired(OSError):
    """The attempt's time is up (raised where a new step would start)."""


class Deadline:
    """``with Deadline(seconds) as d:`` bounds everything the block does through the
    guarded web hook connections to ``seconds`` of wall-clock time; ``d.expired`` says
    whether the time ran out."""

    def __init__(self, seconds: float) -> None:
        self.seconds = float(seconds)
        self.expired = False
        self._ends = 0.0
        self._lock = threading.Lock()
        self._handles: list[socket.socket] = []
        self._done = False
        self._timer = threading.Timer(self.seconds, self._expire)
        self._timer.daemon = True
        self._token: contextvars.Token | None = None

    def __enter__(self) -> Deadline:
        self._ends = time.monotonic() + self.seconds
        self._token = _current.set(self)
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.cancel()
        with self._lock:
            self._done = True
            handles, self._handles = self._handles, []
        for handle in handles:
            handle.close()
        if self._token is not None:
            _current.reset(self._token)

    def remaining(self) -> float:
        """Return the seconds left (0 once the time is up)."""
        return max(0.0, self._ends - time.monotonic())

    def ran_out(self) -> bool:
        """True once the time is up, whether the timer has fired yet or not (a read's
        own timeout as long as the deadline may end first)."""
        return self.expired or self.remaining() <= 0

    def check(self) -> None:
        """Raise :class:`DeadlineExpired` if the time is up.

        :raises DeadlineExpired: the time is up.
        """
        if self.expired or self.remaining() <= 0:
            self.expired = True
            raise DeadlineExpired(f"no complete answer within {self.seconds:g} s")

    def watch(self, sock: socket.socket) -> None:
        """Shut ``sock`` down when the time is up (at once if it already is).

        :raises DeadlineExpired: the time is up (``sock`` is left to its caller to close).
        :raises OSError: its descriptor could not be duplicated.
        """
        with self._lock:
            self.check()
            self._handles.append(sock.dup())

    def _expire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
            for handle in self._handles:
                try:
                    handle.shutdown(socket.SHUT_RDWR)
                except OSError:  # already closed by the peer: nothing to end
                    pass


def current() -> Deadline | None:
    """Return the deadline of the attempt running in this thread, if any."""
    return _current.get()


def resolve_within(host: str, port: int, family: int, seconds: float) -> list[tuple]:
    """Return ``socket.getaddrinfo(host, port, family, SOCK_STREAM)``, waiting at most
    ``seconds`` (the system resolver has its own timeouts, not ours: the lookup is run
    in a thread of its own, left to finish by itself when it takes longer).

    :raises DeadlineExpired: no answer within ``seconds``.
    :raises socket.gaierror: the name does not resolve.
    """
    try:
        ipaddress.ip_address(host)
        return socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)  # nothing to look up
    except ValueError:
        pass
    outcome: dict[str, object] = {}
    done = threading.Event()

    def lookup() -> None:
        try:
            outcome["infos"] = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
        except OSError as err:
            outcome["error"] = err
        done.set()

    threading.Thread(target=lookup, name="webhook-dns", daemon=True).start()
    if not done.wait(None if math.isinf(seconds) else seconds):
        raise DeadlineExpired(f"the name {host} did not resolve within the deadline")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["infos"]  # type: ignore[return-value]
