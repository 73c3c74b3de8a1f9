"""accounts: verified addresses, personal API tokens, sign-in links; seats and game
creators linked to accounts; outbox mails that belong to no game

Revision ID: i10a_accounts
Revises: 0003
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i10a_accounts'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'accounts',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=True),
        sa.Column('display_name', sa.String(length=80), nullable=False),
        sa.Column('tz', sa.String(length=64), nullable=False),
        sa.Column('digest', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('email'))
    op.create_table(
        'api_tokens',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('scopes', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('token_hash'))
    op.create_index('ix_api_tokens_account_id', 'api_tokens', ['account_id'])
    op.create_table(
        'sign_in_links',
        sa.Column('nonce_hash', sa.String(length=64), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('display_name', sa.String(length=80), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('nonce_hash'))
    op.create_index('ix_sign_in_links_email', 'sign_in_links', ['email'])
    with op.batch_alter_table('seats') as batch_op:
        batch_op.add_column(sa.Column('account_id', sa.String(length=32), nullable=True))
        batch_op.create_index('ix_seats_account_id', ['account_id'])
        batch_op.create_foreign_key('fk_seats_account_id', 'accounts', ['account_id'], ['id'])
    with op.batch_alter_table('games') as batch_op:
        batch_op.add_column(sa.Column('creator_account_id', sa.String(length=32),
                                      nullable=True))
        batch_op.create_index('ix_games_creator_account_id', ['creator_account_id'])
        batch_op.create_foreign_key('fk_games_creator_account_id', 'accounts',
                                    ['creator_account_id'], ['id'])
    with op.batch_alter_table('outbox') as batch_op:
        batch_op.alter_column('game_id', existing_type=sa.String(length=32), nullable=True)


def downgrade():
    with op.batch_alter_table('outbox') as batch_op:
        batch_op.alter_column('game_id', existing_type=sa.String(length=32), nullable=False)
    with op.batch_alter_table('games') as batch_op:
        batch_op.drop_constraint('fk_games_creator_account_id', type_='foreignkey')
        batch_op.drop_index('ix_games_creator_account_id')
        batch_op.drop_column('creator_account_id')
    with op.batch_alter_table('seats') as batch_op:
        batch_op.drop_constraint('fk_seats_account_id', type_='foreignkey')
        batch_op.drop_index('ix_seats_account_id')
        batch_op.drop_column('account_id')
    op.drop_table('sign_in_links')
    op.drop_table('api_tokens')
    op.drop_table('accounts')
