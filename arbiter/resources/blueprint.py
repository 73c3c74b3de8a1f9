"""The blueprint every REST resource is built on: flask-smorest's, with a JSON parser
that answers every unreadable body with 400 problem+json, and an ``X-Pagination``
that keeps its page fields on an empty page."""

from __future__ import annotations

import flask_smorest
from flask_smorest.pagination import PaginationMetadataSchema
from webargs.flaskparser import FlaskParser

from arbiter.errors import ArbiterError


class Parser(FlaskParser):
    """webargs' Flask parser, refusing as malformed JSON what Python's ``json`` cannot
    read for other reasons than syntax: an integer of more than 4,300 digits (Python's
    integer-string limit) raises a plain ``ValueError`` that webargs lets through."""

    def _raw_load_json(self, req):
        """Return the parsed JSON body (see ``FlaskParser``).

        :raises ArbiterError: 400 ``malformed-json`` for a number too long to read.
        """
        try:
            return super()._raw_load_json(req)
        except UnicodeDecodeError:
            raise
        except ValueError as err:
            if type(err).__name__ == "JSONDecodeError":
                raise
            raise ArbiterError(
                "A number in the request body has more digits than the service reads (4,300).",
                code="malformed-json",
            ) from None


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint whose arguments are read by :class:`Parser`."""

    ARGUMENTS_PARSER = Parser()

    @staticmethod
    def _make_pagination_metadata(page: int, page_size: int, item_count: int) -> dict:
        """Return the ``X-Pagination`` header's fields with every page field present,
        on an empty list and past the last page too (flask-smorest's own gives only
        ``total`` and ``total_pages`` there: issue 22, item 15): ``total``,
        ``total_pages`` (0 for an empty list), ``first_page`` (1), ``last_page`` (at
        least 1), ``page`` (the page asked for), ``previous_page`` (before it, at most
        the last page) and ``next_page`` when there are such pages."""
        total_pages = -(-item_count // page_size)
        last_page = max(total_pages, 1)
        metadata = {
            "total": item_count,
            "total_pages": total_pages,
            "first_page": 1,
            "last_page": last_page,
            "page": page,
        }
        if page > 1:
            metadata["previous_page"] = min(page - 1, last_page)
        if page < last_page:
            metadata["next_page"] = page + 1
        return PaginationMetadataSchema().dump(metadata)

    def arguments(self, schema, *args, **kwargs):
        """flask-smorest's ``arguments``, with a schema class made an instance once,
        here: given a class, webargs would build a new instance (copying every declared
        field) for each request it parses. Marshmallow schemas keep no state between
        loads, so one instance serves every request and thread; the OpenAPI document
        names it as it names its class.

        :param schema: a ``marshmallow.Schema`` class or instance.
        :returns: the decorator flask-smorest returns.
        """
        if isinstance(schema, type):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)
