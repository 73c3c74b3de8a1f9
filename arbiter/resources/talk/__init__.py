"""``/v1/games/{id}/messages`` and ``/v1/games/{id}/notes``: the table talk."""
