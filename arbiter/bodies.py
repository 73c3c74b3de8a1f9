"""Request bodies without a ``Content-Length`` (``Transfer-Encoding: chunked``) are held
to ``MAX_CONTENT_LENGTH`` like the others.

werkzeug reads such a body through a ``LimitedStream`` that stops at the limit, but
``get_data`` then returns the first ``MAX_CONTENT_LENGTH`` bytes as if they were the
whole body (werkzeug raises 413 only on a read after the limit): a body over the limit
would be read cut short (a 400 about malformed JSON). :class:`BoundedRequest` makes
that 413 ``body-too-large``, as for a ``Content-Length`` over the limit.
"""

from __future__ import annotations

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import LimitedStream


class BoundedRequest(Request):
    """Flask's request, whose streamed body over ``max_content_length`` is 413."""

    def get_data(self, cache: bool = True, as_text: bool = False, parse_form_data: bool = False):
        """Return the body as werkzeug does.

        :raises RequestEntityTooLarge: a body without a length goes on past
            ``max_content_length``.
        """
        streamed = self.content_length is None and "stream" not in self.__dict__
        data = super().get_data(cache, as_text, parse_form_data)
        stream = self.__dict__.get("stream")
        if (
            streamed
            and isinstance(stream, LimitedStream)
            and stream.is_exhausted
            and self.environ["wsgi.input"].read(1)
        ):
            raise RequestEntityTooLarge()
        return data
