"""tournaments: the round deadline's policy (deadline_policy: forfeit or timeout-move;
NULL for tournaments made before it: their games' clock policy), byes an entrant asks
for (tournament_entries.bye_requests: {round: letter}), the engine rating an entry is
seeded by (tournament_entries.seed_rating, fixed at the start or at a late entry) and
the byes a round set before it was paired (tournament_rounds.requested_byes:
[[entry, letter], ...])

Revision ID: i28a_tournament_service
Revises: i22b_webhook_lease
Create Date: 2026-12-02

"""
from alembic import op
import sqlalchemy as sa


revision = 'i28a_tournament_service'
down_revision = 'i22b_webhook_lease'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('deadline_policy', sa.String(16), nullable=True))
    with op.batch_alter_table('tournament_entries') as batch:
        batch.add_column(sa.Column('bye_requests', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('seed_rating', sa.Float(), nullable=True))
    with op.batch_alter_table('tournament_rounds') as batch:
        batch.add_column(sa.Column('requested_byes', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('tournament_rounds') as batch:
        batch.drop_column('requested_byes')
    with op.batch_alter_table('tournament_entries') as batch:
        batch.drop_column('seed_rating')
        batch.drop_column('bye_requests')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('deadline_policy')
