"""web hooks: an account's URLs and events, and the outbox of their deliveries
(one per URL per event, linked to every hook it serves)

Revision ID: i11d_webhooks
Revises: i16b_mail_retry
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i11d_webhooks'
down_revision = 'i16b_mail_retry'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'webhooks',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('url', sa.String(length=2000), nullable=False),
        sa.Column('events', sa.JSON(), nullable=False),
        sa.Column('secret', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False),
        sa.Column('last_success_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('disabled_reason', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id']),
        sa.PrimaryKeyConstraint('id'))
    op.create_index('ix_webhooks_account_id', 'webhooks', ['account_id'])
    op.create_table(
        'webhook_deliveries',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('message_id', sa.String(length=64), nullable=False),
        sa.Column('event', sa.String(length=32), nullable=False),
        sa.Column('url', sa.String(length=2000), nullable=False),
        sa.Column('url_hash', sa.String(length=64), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('retry_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('delivered_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('given_up_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_status', sa.Integer(), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('message_id', 'url_hash', name='uq_webhook_deliveries_message_url'))
    op.create_index('ix_webhook_deliveries_retry_at', 'webhook_deliveries', ['retry_at'])
    op.create_index('ix_webhook_deliveries_delivered_at', 'webhook_deliveries',
                    ['delivered_at'])
    op.create_table(
        'webhook_recipients',
        sa.Column('webhook_id', sa.String(length=32), nullable=False),
        sa.Column('delivery_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['webhook_id'], ['webhooks.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['delivery_id'], ['webhook_deliveries.id'],
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('webhook_id', 'delivery_id'))
    op.create_index('ix_webhook_recipients_delivery_id', 'webhook_recipients',
                    ['delivery_id'])


def downgrade():
    op.drop_index('ix_webhook_recipients_delivery_id', table_name='webhook_recipients')
    op.drop_table('webhook_recipients')
    op.drop_index('ix_webhook_deliveries_delivered_at', table_name='webhook_deliveries')
    op.drop_index('ix_webhook_deliveries_retry_at', table_name='webhook_deliveries')
    op.drop_table('webhook_deliveries')
    op.drop_index('ix_webhooks_account_id', table_name='webhooks')
    op.drop_table('webhooks')
