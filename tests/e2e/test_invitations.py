"""Nobody makes the service mail strangers (issue 22, items 3, 8 and 14), against real
processes: the Procfile's web, worker, mailer and beat on the embedded default (as
``make run`` starts them, open creation on), every mail received by a real SMTP
server on loopback.

- a caller without a token cannot make it mail any stranger (single, bulk, campaign);
- a signed-in account invites at most ``INVITES_PER_DAY`` mailboxes a day, bulk
  included, each mailbox once ever (plus-tags and case folded);
- the invitation mail holds none of the words the inviter typed: it names the inviter
  by account name and address, the game by title, who else plays;
- an address that unsubscribed from everything gets no sign-in mail, until "Mail me
  again";
- the sign-in limit holds across two web processes on one SQLite database.
"""

from __future__ import annotations

import re
import time

import requests

from tests import processes
from tests.conftest import free_port

PHISH = "Hello URGENT: account locked, verify at http://evil.example/login"
"""The player name of the issue's attack."""

BUDGET = 3
"""The stack's ``INVITES_PER_DAY``."""


def wait_for(inbox, predicate, timeout: float = 120.0) -> list:
    """Wait until some received message satisfies ``predicate``; return all that do."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [m for m in list(inbox.messages) if predicate(m)]
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no such mail in {timeout:.0f} s: {[m['To'] for m in inbox.messages]}")


def to(address: str):
    return lambda m: str(m["To"]) == address


def body(message) -> str:
    return message.get_body(("plain",)).get_content()


def sign_in(url: str, inbox, email: str, name: str) -> str:
    """Sign up through the mailed link; return the personal token."""
    mail = sign_in_mail(url, inbox, email, name=name)
    nonce = re.search(r"[?&]token=([^&\s]+)", body(mail)).group(1)
    answer = requests.post(
        f"{url}/v1/auth/sessions", json={"email": email, "token": nonce}, timeout=30
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]["token"]


def game(*players, engine="space-worm"):
    return {"engine": engine, "players": [{"name": n, "email": e} for n, e in players]}


def test_nobody_makes_a_make_run_stack_mail_strangers(start_stack, smtp, monkeypatch):
    monkeypatch.setenv("INVITES_PER_DAY", str(BUDGET))
    smtp_url, inbox = smtp
    url = start_stack(None, None, smtp_url)
    http = requests.Session()

    # anonymous (open creation): 100 games naming 500 strangers, one game, a campaign
    bulk = {
        "games": [
            game(*((f"{PHISH[:76]} {j}", f"victim{i}.{j}@example.org") for j in range(5)))
            for i in range(100)
        ]
    }
    for path, payload in (
        ("/v1/bulk-games", bulk),
        ("/v1/games", game(("Bob", "bob@example.org"), ("Me", None))),
        ("/v1/campaigns", game(("Bob", "bob@example.org"), engine="star-maps")),
    ):
        refused = http.post(f"{url}{path}", json=payload, timeout=60)
        assert refused.status_code == 401, refused.text
        assert refused.json()["code"] == "sign-in-to-invite"
        assert "sign in" in refused.json()["detail"]

    # a verified account: its budget of new mailboxes holds across single and bulk
    ann = {"Authorization": f"Bearer {sign_in(url, inbox, 'ann@example.org', 'Ann')}"}
    first = http.post(
        f"{url}/v1/games",
        json=game((PHISH, "ann@example.org"), (PHISH[:79] + "!", "victim+1@example.org")),
        headers=ann,
        timeout=30,
    )
    assert first.status_code == 201, first.text
    batch = {
        "games": [
            game(("A", "Victim+2@Example.org"), ("B", "carl@example.org"), ("C", None)),
            game(("A", "victim@example.org"), ("B", "dora@example.org")),
        ]
    }
    assert http.post(f"{url}/v1/bulk-games", json=batch, headers=ann, timeout=30).ok
    over = http.post(
        f"{url}/v1/bulk-games",
        json={"games": [game(("A", "victim+9@example.org"), ("E", "erin@example.org"))]},
        headers=ann,
        timeout=30,
    )
    assert over.status_code == 429 and over.json()["code"] == "invitation-budget", over.text
    assert int(over.headers["Retry-After"]) > 0

    # what reaches the SMTP server: one invitation per mailbox, none over the budget
    invited = {"victim+1@example.org", "carl@example.org", "dora@example.org"}
    for address in invited:
        wait_for(inbox, to(address))
    olga_link = sign_in_mail(url, inbox, "olga@example.org")
    time.sleep(3)  # anything else in flight would arrive now
    invitations = [m for m in inbox.messages if "invitation" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in invitations) == sorted(invited)
    for message in invitations:
        text = body(message) + str(message["Subject"])
        assert "URGENT" not in text and "evil.example" not in text, text
        assert "Ann <ann@example.org>, who has an account on Arbiter, invites you" in text
        assert "Space Worm" in text
    victim = body(next(m for m in invitations if str(m["To"]) == "victim+1@example.org"))
    assert "The players: you and Ann." in victim
    carl = body(next(m for m in invitations if str(m["To"]) == "carl@example.org"))
    assert "The players: you, one other invited player and one more player" in carl

    # unsubscribed from everything: no sign-in mail, whoever asks, until "Mail me again"
    unsubscribe = olga_link["List-Unsubscribe"].strip("<>")
    done = http.post(
        unsubscribe,
        data="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        timeout=30,
    )
    assert done.status_code == 200 and done.json()["scope"] == "all"
    normal = http.post(f"{url}/v1/auth/links", json={"email": "zed@example.org"}, timeout=30)
    for address in ("olga@example.org", "Olga+x@example.org"):
        quiet = http.post(f"{url}/v1/auth/links", json={"email": address}, timeout=30)
        assert (quiet.status_code, quiet.json()) == (normal.status_code, normal.json())
    wait_for(inbox, to("zed@example.org"))
    time.sleep(3)
    assert len([m for m in inbox.messages if str(m["To"]).startswith(("olga", "Olga"))]) == 1
    token = unsubscribe.split("t=", 1)[1]
    assert http.post(f"{url}/v1/resubscribe?t={token}", json={}, timeout=30).ok
    sign_in_mail(url, inbox, "olga@example.org", seen=1)


def sign_in_mail(url: str, inbox, email: str, seen: int = 0, name: str | None = None):
    """Ask for a sign-in link for ``email``; return the mail once it arrived (the
    ``seen+1``-th to that address)."""
    sent = requests.post(
        f"{url}/v1/auth/links", json={"email": email, "display_name": name}, timeout=30
    )
    assert sent.status_code == 202, sent.text
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        mails = [m for m in list(inbox.messages) if to(email)(m)]
        if len(mails) > seen:
            return mails[seen]
        time.sleep(0.2)
    raise AssertionError(f"no sign-in mail to {email}")


def test_the_sign_in_limit_holds_across_two_web_processes(tmp_path):
    """Given two web processes on one SQLite database (the embedded default) and
    RATELIMIT_SIGN_IN of 3 per 10 minutes, 12 requests for one address, alternating
    between them, get exactly 3 links."""
    first, second = free_port(), free_port()
    env = processes.service_env(
        tmp_path,
        first,
        RATELIMIT_ENABLED="1",
        RATELIMIT_SIGN_IN="3 per 10 minutes",
        RATELIMIT_SIGN_IN_CLIENT="",
    )
    procs = []
    try:
        for port in (first, second):
            procs += processes.serve(tmp_path / str(port), port, env, celery=False)
        answers = [
            requests.post(
                f"http://127.0.0.1:{port}/v1/auth/links",
                json={"email": "ann@example.org"},
                timeout=30,
            ).status_code
            for port in (first, second) * 6
        ]
    finally:
        processes.stop(procs)
    assert sorted(answers) == [202] * 3 + [429] * 9, f"{answers.count(202)} links: {answers}"
