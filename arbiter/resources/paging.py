"""Pages of a SQLAlchemy select for ``blp.paginate``, read with their total in one
statement (the game list and the tournament list share it).

flask-smorest asks a :class:`flask_smorest.Page` for ``item_count`` (the
``X-Pagination`` total), then for ``items``. Here the first question runs one
statement that answers both::

    WITH page AS (SELECT id FROM <the filtered select> ORDER BY <its order>
                  LIMIT size OFFSET first)
    SELECT <rows>, (SELECT count(*) FROM (SELECT id FROM <the filtered select>)) AS total
    FROM <the filtered select> JOIN page USING (id)
    [LEFT JOIN <relationships loaded eagerly>] ORDER BY <its order>

The page and the count read only the filters' index (the count runs once, an
uncorrelated subquery; a window ``count(*) OVER ()`` in the page instead stored every
match and cost several times more), the outer select reads the page's rows. The total
stays exact. Only a page with no rows (past the end, or nothing matches) needs a
second statement, the count alone.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask_smorest import Page

from arbiter.extensions import db

MAX_OFFSET = 2**31
"""Pages past this offset are empty (no database takes an offset of any size)."""


class SelectPage(Page):
    """A page of ``self.collection``, a select of ``model`` rows with its filters and
    order; subclasses name the ``model``, the loader ``options`` of what ``summary``
    reads besides the row (joined into the same statement), and ``summary``."""

    model: Any = None
    """The mapped class the select reads (single-column primary key)."""

    options: tuple = ()
    """Loader options for the page's rows (e.g. ``joinedload`` of a collection)."""

    def summary(self, row) -> dict:
        """Return what the list shows of one row."""
        raise NotImplementedError

    @property
    def item_count(self) -> int:
        """Return how many rows the whole select has (and keep this page's rows)."""
        self._rows, total = self._read()
        return total

    @property
    def items(self) -> list[dict]:
        """Return the summaries of this page's rows (none past ``MAX_OFFSET``)."""
        return [self.summary(row) for row in self._rows]

    def _read(self) -> tuple[list, int]:
        """Return this page's rows and the total, in one statement when the page has
        rows (see the module)."""
        p = self.page_params
        if p.first_item > MAX_OFFSET:
            return [], self._count()
        [key] = sa.inspect(self.model).primary_key
        page = (
            self.collection.with_only_columns(key)
            .offset(p.first_item)
            .limit(p.page_size)
            .cte("page")
        )
        rows = (
            db.session.execute(
                self.collection.join(page, page.c[key.name] == key)
                .add_columns(self._counted().scalar_subquery().label("total"))
                .options(*self.options)
            )
            .unique()
            .all()
        )
        if not rows:
            return [], self._count()
        return [row[0] for row in rows], rows[0].total

    def _counted(self) -> sa.Select:
        """Return the count of the filtered select's keys (no order, no other column:
        the filters' index answers it)."""
        [key] = sa.inspect(self.model).primary_key
        matching = self.collection.order_by(None).with_only_columns(key).subquery()
        return sa.select(sa.func.count()).select_from(matching)

    def _count(self) -> int:
        """Return how many rows the filtered select has."""
        return db.session.scalar(self._counted())
