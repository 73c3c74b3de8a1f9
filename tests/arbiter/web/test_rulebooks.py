"""The rulebooks ship with the product (issue 27, item 2): a page per game at
/rules/<engine>, linked from game pages and turn mails, from the copies in the package
(``engines/rules/``), which are the books the engines cite."""

from __future__ import annotations

from pathlib import Path

import pytest

import engines
from arbiter.web.rulebooks import anchor, blocks, book
from tests.helpers import new_game

SHARED = Path(__file__).resolve().parents[4] / "shared" / "rules"


@pytest.mark.parametrize("engine", [e.id for e in engines.all_engines()])
def test_every_game_has_its_rulebook_page(client, engine):
    page = client.get(f"/rules/{engine}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    headings = [b for b in blocks(book(engine))[1:] if b.kind == "heading"]
    for heading in headings:
        assert f'<h{heading.level} id="{heading.anchor}">' in html
    anchors = [h.anchor for h in headings]
    assert len(anchors) == len(set(anchors)) and all(anchors)


@pytest.mark.skipif(not SHARED.is_dir(), reason="no shared rulebooks beside this checkout")
@pytest.mark.parametrize("engine", [e.id for e in engines.all_engines()])
def test_the_shipped_books_are_the_project_books(engine):
    assert book(engine) == (SHARED / f"{engine}.md").read_text(encoding="utf-8")


def test_a_cited_section_has_an_address(client):
    """rules/dark-horse.md, "Special Cards" is /rules/dark-horse#special-cards."""
    html = client.get("/rules/dark-horse").get_data(as_text=True)
    assert '<h2 id="special-cards">Special Cards</h2>' in html
    assert anchor("Lock/Unlock") == "lock-unlock"


def test_a_game_without_a_book_is_a_page_that_says_why(client):
    for name in ("chess", "Dark-Horse", "dark_horse", "...", "a" * 255, "b" * 5000):
        page = client.get(f"/rules/{name}")
        assert page.status_code == 404
        assert "There is no game called" in page.get_data(as_text=True)


def test_the_game_page_links_its_rules(client):
    game_id, _ = new_game(client, "space-worm", 2)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'href="/rules/space-worm"' in html


def test_lists_and_paragraphs_are_read():
    parts = blocks("Title\n\nSetup\n• one\n• two\nA sentence that ends.\n")
    assert [(b.kind, b.text or b.items) for b in parts] == [
        ("heading", "Title"),
        ("heading", "Setup"),
        ("list", ["one", "two"]),
        ("paragraph", "A sentence that ends."),
    ]


def test_a_turn_mail_links_the_rules(client, app):
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.models import OutboxMail
    from tests.helpers import until_decision

    game_id, _ = new_game(client, "dark-horse", 2, emails=True)
    until_decision(client, app, game_id)
    with app.app_context():
        bodies = db.session.scalars(
            sa.select(OutboxMail.body).where(
                OutboxMail.game_id == game_id, OutboxMail.dedupe_key.like("turn:%")
            )
        ).all()
    assert bodies
    for body in bodies:
        link = next(line for line in body.splitlines() if line.startswith("The rules: "))
        path = link.removeprefix("The rules: http://arbiter.test")
        assert path == "/rules/dark-horse"
        assert client.get(path).status_code == 200


def test_a_table_of_contents_links_the_sections_once(client):
    """Space Worm's book lists its sections, then has them: the list links them, and
    each section is one heading (rules/space-worm.md, "Table of Contents")."""
    parts = blocks(book("space-worm"))
    toc = next(b for b in parts if b.kind == "contents")
    assert toc.items == ["Setup", "Turns", "Fruit", "Game End", "Scoring"]
    headings = [b.text for b in parts if b.kind == "heading"]
    assert headings.count("Scoring") == 1 and "Space Worm Rulebook" not in headings
    html = client.get("/rules/space-worm").get_data(as_text=True)
    assert '<a href="#scoring">Scoring</a>' in html and '<h2 id="scoring">' in html


def test_tables_are_tables():
    """The planets table of Space Worm ("Scoring") and Worms' accuracy table."""
    planets = next(b for b in blocks(book("space-worm")) if b.kind == "table")
    assert planets.rows[0] == ["Number of Planets not eaten", "VPs Lost"]
    assert planets.rows[-1] == ["8", "36"] and len(planets.rows) == 9
    accuracy = next(b for b in blocks(book("worms")) if b.kind == "table")
    assert accuracy.rows[0] == ["Roll", "Effect (Accuracy)"]
    assert all("---" not in cell for row in accuracy.rows for cell in row)
