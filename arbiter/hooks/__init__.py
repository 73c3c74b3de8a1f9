"""The hooks context."""
