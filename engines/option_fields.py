"""Option fields that accept only what they say: an engine's options are JSON, so a flag
is ``true`` or ``false`` and nothing that merely looks like one.

marshmallow's ``Boolean`` also takes ``"yes"``, ``"on"``, ``1``, ``"0"`` and the like
(its ``truthy`` / ``falsy`` sets); a game created with ``"timer": "yes"`` would be
created with the Timer on, although the creator may have meant anything. ``Flag``
refuses them with a sentence a player understands.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields


class Flag(fields.Boolean):
    """A JSON boolean option: ``true`` or ``false`` only (never ``"yes"``, ``1``, ...).

    :param description: what the option turns on, for ``GET /v1/engines/{id}``.
    Defaults to ``false`` when left out.
    """

    default_error_messages = {"invalid": "Not a boolean: write true or false."}

    def __init__(self, description: str, **kwargs: Any) -> None:
        kwargs.setdefault("load_default", False)
        super().__init__(metadata={"description": description}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        """Return ``value`` if it is a JSON boolean.

        :raises marshmallow.ValidationError: anything else.
        """
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value
