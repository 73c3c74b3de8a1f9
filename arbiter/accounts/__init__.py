"""The accounts context."""
