"""The HTML lists' query parameters: a bad one is a 400 page that says why (issue 22,
item 14)."""

from __future__ import annotations


def test_the_web_lists_answer_a_page_that_is_no_number_with_a_400_page(client):
    """Issue 22, item 14: ``/games?page=-1`` and ``?page=abc`` (and ``0``, ``2.5``)
    were answered 200 with page 1; the README promises a 400 page that says why. The
    list of tournaments likewise refuses an engine there is none of."""
    for page in ("-1", "abc", "0", "2.5", "1e3", "%C2%B2"):
        answer = client.get(f"/games?page={page}")
        assert answer.status_code == 400 and answer.mimetype == "text/html", page
        assert "There is no page" in answer.get_data(as_text=True), page
    for page in ("", "1", "2", "007"):
        assert client.get(f"/games?page={page}").status_code == 200, page
    answer = client.get("/tournaments?engine=nope")
    assert answer.status_code == 400 and answer.mimetype == "text/html"
    assert "There is no game &#39;nope&#39;" in answer.get_data(as_text=True)
    assert client.get("/tournaments?engine=worms").status_code == 200
