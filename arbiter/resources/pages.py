"""The few small pages a mailed link opens: a sentence and buttons that POST JSON.

Opening a link never acts (mail scanners follow links); the buttons do. The web pages
of the site are another part (``arbiter/web/``); these only close the loop for links.
"""

from __future__ import annotations

from html import escape

from flask import Response, json, url_for

from arbiter.web import CSP

PAGE = """<!doctype html>
<html lang="en"><meta charset="utf-8"><title>{title}</title>
<script src="{script}" defer></script>
<body>
<h1>{title}</h1>
<p>{text}</p>
{buttons}
<pre id="out"></pre>
</body></html>
"""
"""The page; its buttons work by ``arbiter/web/static/link-buttons.js``: it carries
the pages' strict Content-Security-Policy (``arbiter/web/__init__.py``), which runs no
inline script."""


def button_page(title: str, text: str, actions: list[tuple[str, str, dict]]) -> Response:
    """Return an HTML page: ``text`` and one button per ``(label, url, json body)``,
    with the pages' Content-Security-Policy."""
    buttons = "\n".join(
        f'<button data-url="{escape(url)}" data-body="{escape(json.dumps(body))}">'
        f"{escape(label)}</button>"
        for label, url, body in actions
    )
    page = PAGE.format(
        title=escape(title),
        text=escape(text),
        buttons=buttons,
        script=url_for("web.static", filename="link-buttons.js"),
    )
    return Response(page, mimetype="text/html", headers={"Content-Security-Policy": CSP})
