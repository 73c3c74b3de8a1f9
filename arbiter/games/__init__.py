"""The games context."""
