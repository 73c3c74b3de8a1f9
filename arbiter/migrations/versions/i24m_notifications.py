"""notifications: how turns are told (accounts.notify: turn, digest or none, for all
games; seats.notify: per game, NULL for the account's), the digest's hour
(accounts.digest_hour, in the account's zone) and who has a game open now (presence)

Revision ID: i24m_notifications
Revises: i28a_tournament_service
Create Date: 2026-12-02

"""
from alembic import op
import sqlalchemy as sa


revision = 'i24m_notifications'
down_revision = "i24a_talk"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('accounts') as batch:
        batch.add_column(
            sa.Column('notify', sa.String(8), nullable=False, server_default='turn')
        )
        batch.add_column(sa.Column('digest_hour', sa.Integer(), nullable=True))
    op.execute("UPDATE accounts SET notify = 'digest' WHERE digest")
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('notify', sa.String(8), nullable=True))
    op.create_table(
        'presence',
        sa.Column('game_id', sa.String(32), primary_key=True),
        sa.Column('seat', sa.Integer(), primary_key=True),
        sa.Column('until', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade():
    op.drop_table('presence')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('notify')
    with op.batch_alter_table('accounts') as batch:
        batch.drop_column('digest_hour')
        batch.drop_column('notify')
