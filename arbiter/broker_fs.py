"""kombu's filesystem transport with atomic writes, for the embedded default.

kombu's own ``_put`` creates the message file and then writes it, and its ``_get``
moves and reads a file without taking the writer's lock, so a worker polling while
another process (web, mailin, beat) enqueues can read an empty file and die on a
``JSONDecodeError``. Here each message is written under a hidden name (which
``_get`` skips) and renamed into place, so a reader only ever sees whole messages.
Registered as the ``arbiterfs://`` transport by :func:`register`.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    """A filesystem channel whose puts are atomic (write, then rename)."""

    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` on ``queue``: written under a hidden name, then renamed."""
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        hidden = os.path.join(self.data_folder_out, "." + name)
        with open(hidden, "wb") as f:
            f.write(str_to_bytes(dumps(payload)))
        os.replace(hidden, final)


class Transport(filesystem.Transport):
    """The filesystem transport with :class:`Channel`."""

    Channel = Channel


def register() -> None:
    """Make ``arbiterfs://`` name this transport."""
    TRANSPORT_ALIASES.setdefault("arbiterfs", "arbiter.broker_fs:Transport")
