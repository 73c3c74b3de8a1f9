"""web hook deliveries in flight: lease_until marks a try in progress (until its lease
ends), so each account's deliveries in flight can be counted and bounded

Revision ID: i22b_webhook_lease
Revises: i22a_mailboxes
Create Date: 2026-12-02

"""
from alembic import op
import sqlalchemy as sa


revision = 'i22b_webhook_lease'
down_revision = 'i22a_mailboxes'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('webhook_deliveries') as batch:
        batch.add_column(sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True))
        batch.create_index('ix_webhook_deliveries_lease_until', ['lease_until'])


def downgrade():
    with op.batch_alter_table('webhook_deliveries') as batch:
        batch.drop_index('ix_webhook_deliveries_lease_until')
        batch.drop_column('lease_until')
