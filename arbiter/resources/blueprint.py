"""The blueprint every REST resource is built on: flask-smorest's, with a JSON parser
that answers every unreadable body with 400 problem+json."""

from __future__ import annotations

import flask_smorest
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
