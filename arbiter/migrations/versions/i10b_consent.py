"""consent: invitations, mail addresses and the consent record; seats and accounts
that turned mail off; games that wait for their invited seats (start_at, unfilled)

Revision ID: i10b_consent
Revises: i11c_tournaments
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i10b_consent'
down_revision = 'i11c_tournaments'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'invitations',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('nonce_hash', sa.String(length=64), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('mailed', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('nonce_hash'))
    op.create_index('ix_invitations_game_id', 'invitations', ['game_id'])
    op.create_index('ix_invitations_email', 'invitations', ['email'])
    op.create_table(
        'mail_addresses',
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('invited_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('blocked_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('email'))
    op.create_table(
        'consent_events',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=True),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_consent_events_email', 'consent_events', ['email'])
    with op.batch_alter_table('seats') as batch_op:
        batch_op.add_column(sa.Column('mail_off', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('digest', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    with op.batch_alter_table('accounts') as batch_op:
        batch_op.add_column(sa.Column('mail_off', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('digest_sent_at', sa.DateTime(timezone=True),
                                      nullable=True))
    with op.batch_alter_table('games') as batch_op:
        batch_op.add_column(sa.Column('start_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('unfilled', sa.String(length=16), nullable=False,
                                      server_default='cancel'))
        batch_op.create_index('ix_games_start_at', ['start_at'])


def downgrade():
    with op.batch_alter_table('games') as batch_op:
        batch_op.drop_index('ix_games_start_at')
        batch_op.drop_column('unfilled')
        batch_op.drop_column('start_at')
    with op.batch_alter_table('accounts') as batch_op:
        batch_op.drop_column('digest_sent_at')
        batch_op.drop_column('mail_off')
    with op.batch_alter_table('seats') as batch_op:
        batch_op.drop_column('digest')
        batch_op.drop_column('mail_off')
    op.drop_table('consent_events')
    op.drop_table('mail_addresses')
    op.drop_table('invitations')
