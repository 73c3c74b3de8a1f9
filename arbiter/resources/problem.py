"""The problem details schema, where resources look for it (see ``arbiter.problem``)."""

from arbiter.problem import ProblemSchema

__all__ = ["ProblemSchema"]
