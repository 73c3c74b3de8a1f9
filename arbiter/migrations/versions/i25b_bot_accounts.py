"""bot accounts: accounts.bot_owner_id (the person who made a bot account; NULL for a
person) and accounts.bot_public (anybody may seat it), seats.bot_account (the seat is
held by a bot account: games and pages mark it)

Revision ID: i25b_bot_accounts
Revises: i25a_bot_seats
Create Date: 2026-12-02

"""
from alembic import op
import sqlalchemy as sa


revision = 'i25b_bot_accounts'
down_revision = 'i25a_bot_seats'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('accounts') as batch:
        batch.add_column(sa.Column('bot_owner_id', sa.String(32), nullable=True))
        batch.add_column(
            sa.Column('bot_public', sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_foreign_key(
            'fk_accounts_bot_owner_id_accounts', 'accounts', ['bot_owner_id'], ['id']
        )
        batch.create_index('ix_accounts_bot_owner_id', ['bot_owner_id'])
    with op.batch_alter_table('seats') as batch:
        batch.add_column(
            sa.Column('bot_account', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('bot_account')
    with op.batch_alter_table('accounts') as batch:
        batch.drop_index('ix_accounts_bot_owner_id')
        batch.drop_constraint('fk_accounts_bot_owner_id_accounts', type_='foreignkey')
        batch.drop_column('bot_public')
        batch.drop_column('bot_owner_id')
