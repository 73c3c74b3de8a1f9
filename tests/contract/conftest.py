"""Fixtures of the tests in this folder."""

import pytest


@pytest.fixture
def postgres_url(own_postgres_url):
    """Here each test gets a PostgreSQL schema of its own: its processes sweep the whole
    database (the mailer drains every due mail, the clock every deadline), so other
    tests' rows in a shared schema would be theirs to work through."""
    return own_postgres_url
