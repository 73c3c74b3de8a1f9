"""The standings as CSV through the API: safe to open in a spreadsheet (issue 22,
item 9)."""

from __future__ import annotations

import csv
import io
import uuid

from tests.helpers import auth, sign_in


def test_standings_csv_escapes_formulas_and_writes_numbers(client, app):
    """Issue 22, item 9: a name that a spreadsheet would run as a formula
    (``=HYPERLINK(...)``, ``+``, ``-``, ``@``) gets a leading ``'`` (OWASP "CSV
    Injection"), and ``withdrawn`` is a number (0/1), not ``False``/``True``."""
    tag = uuid.uuid4().hex[:6]
    names = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-3", "@SUM(A1)"]
    tokens = [sign_in(client, app, f"c{i}-{tag}@example.org", name) for i, name in enumerate(names)]
    body = {"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 2}
    t = client.post("/v1/tournaments", json=body, headers=auth(tokens[0])).json
    for token in tokens:
        entered = client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(token))
        assert entered.status_code == 201, entered.json
    answer = client.get(f"/v1/tournaments/{t['id']}/standings?format=csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert sorted(r["name"] for r in rows) == sorted("'" + n for n in names)
    assert {r["withdrawn"] for r in rows} == {"0"}
    assert all(r["points"] in {"0", "0.0"} for r in rows)
