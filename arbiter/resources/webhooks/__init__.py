"""``/v1/me/webhooks``: my web hooks and their delivery logs."""
