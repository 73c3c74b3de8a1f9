"""indexes for the game list at 100,000 games: filters with the newest-first order
(status, engine, created_at, id), and the player-name filter on seats

Revision ID: i13a_list_indexes
Revises: i10a_accounts
Create Date: 2026-12-01

"""
from alembic import op


revision = 'i13a_list_indexes'
down_revision = 'i10a_accounts'
branch_labels = None
depends_on = None

INDEXES = [
    ("ix_games_created", "games", ["created_at", "id"]),
    ("ix_games_status_created", "games", ["status", "created_at", "id"]),
    ("ix_games_engine_created", "games", ["engine", "created_at", "id"]),
    ("ix_games_status_engine_created", "games", ["status", "engine", "created_at", "id"]),
    ("ix_seats_name", "seats", ["name"]),
]


def upgrade():
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade():
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
