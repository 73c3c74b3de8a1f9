"""The mail context."""
