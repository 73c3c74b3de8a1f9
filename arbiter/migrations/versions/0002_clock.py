"""the turn clock: per-seat clock state, reminders, sweep heartbeat, outages, creator token

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('clock_state', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('remind_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('creator_token_hash', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_remind_at'), ['remind_at'], unique=False)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tz', sa.String(length=64), nullable=True))
    op.create_table('clock_reminders',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('prompt_seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('threshold', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('mail_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('game_id', 'prompt_seq', 'seat', 'threshold')
    )
    op.create_table('clock_sweeps',
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('last_run', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    op.create_table('clock_outages',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('clock_outages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_clock_outages_started_at'), ['started_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_clock_outages_ended_at'), ['ended_at'], unique=False)


def downgrade():
    with op.batch_alter_table('clock_outages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_clock_outages_ended_at'))
        batch_op.drop_index(batch_op.f('ix_clock_outages_started_at'))
    op.drop_table('clock_outages')
    op.drop_table('clock_sweeps')
    op.drop_table('clock_reminders')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('tz')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_remind_at'))
        batch_op.drop_column('creator_token_hash')
        batch_op.drop_column('remind_at')
        batch_op.drop_column('clock_state')
