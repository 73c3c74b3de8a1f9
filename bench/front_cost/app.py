"""A trivial Flask route behind each way of serving it (issue 26): the product's front
with a2wsgi (``BRIDGE=a2wsgi``), with :mod:`arbiter.streams.bridge` (``BRIDGE=bridge``,
the body read first as the front does), or ``flask_app`` under gunicorn. See run.sh."""

import os

from a2wsgi import WSGIMiddleware
from flask import Flask, jsonify, request

from arbiter.streams.bridge import Bridge

flask_app = Flask(__name__)


@flask_app.route("/ping", methods=["GET", "POST"])
def ping():
    return jsonify(ok=True, n=len(request.get_data()))


class Front:
    """Hands every request to Flask as arbiter.streams.asgi.Front does."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        if kind == "a2wsgi":
            self.w = WSGIMiddleware(flask_app, workers=32)
        else:
            self.w = Bridge(flask_app, 32)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return
        if self.kind == "a2wsgi":
            await self.w(scope, receive, send)
            return
        data = b""
        if scope["method"] == "POST":
            more = True
            while more:
                message = await receive()
                data += message.get("body", b"")
                more = message.get("more_body", False)
        await self.w(scope, receive, send, data)


def create_app():
    return Front(os.environ["BRIDGE"])
