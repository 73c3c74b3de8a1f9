"""The testbed's SMTP host: an aiosmtpd server that accepts every mail and keeps each
in a file of its own (``<folder>/<n>.eml``), so the soak can count them by Message-ID
after the run, whatever happened to the other hosts.

``python -m tests.multihost.smtp_sink --host ADDR --port PORT FOLDER``
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import threading
from pathlib import Path

from aiosmtpd.controller import Controller


class Keep:
    """Write each accepted mail's data to the folder (written, then renamed: a file
    that exists is a whole mail)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.numbers = itertools.count(1)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd API
        with self.lock:
            number = next(self.numbers)
        part = self.folder / f"{number}.part"
        part.write_bytes(envelope.content)
        os.replace(part, self.folder / f"{number}.eml")
        return "250 Message accepted for delivery"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2525)
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    controller = Controller(Keep(args.folder), hostname=args.host, port=args.port)
    controller.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
