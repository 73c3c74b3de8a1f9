"""bots: a seat may be a built-in bot (seats.bot) or handed to the autopilot
(seats.autopilot); a tournament may fill its tables with a bot
(tournaments.fill_with_bot) whose entry has no account (tournament_entries.bot,
account_id nullable); built-in bots' ratings per engine, kind and level (bot_ratings)

Revision ID: i25a_bot_seats
Revises: i23a_open_seats
Create Date: 2026-12-02

"""
from alembic import op
import sqlalchemy as sa


revision = 'i25a_bot_seats'
down_revision = "i24m_notifications"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('bot', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('autopilot', sa.JSON(), nullable=True))
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('fill_with_bot', sa.JSON(), nullable=True))
    with op.batch_alter_table('tournament_entries') as batch:
        batch.add_column(sa.Column('bot', sa.JSON(), nullable=True))
        batch.alter_column('account_id', existing_type=sa.String(32), nullable=True)
    op.create_table(
        'bot_ratings',
        sa.Column('engine', sa.String(40), primary_key=True),
        sa.Column('kind', sa.String(16), primary_key=True),
        sa.Column('level', sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade():
    op.drop_table('bot_ratings')
    # bot entries have no account: they cannot stay once account_id is required again
    op.execute("DELETE FROM tournament_entries WHERE account_id IS NULL")
    with op.batch_alter_table('tournament_entries') as batch:
        batch.alter_column('account_id', existing_type=sa.String(32), nullable=False)
        batch.drop_column('bot')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('fill_with_bot')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('autopilot')
        batch.drop_column('bot')
