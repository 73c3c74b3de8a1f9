"""mail in: the inbound table; outbox headers and board pictures

Revision ID: i9a_mail_in
Revises: i13a_list_indexes
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i9a_mail_in'
down_revision = 'i13a_list_indexes'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'inbound',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('message_id', sa.String(length=400), nullable=False),
        sa.Column('raw', sa.LargeBinary(), nullable=False),
        sa.Column('rcpt', sa.String(length=1000), nullable=True),
        sa.Column('mail_from', sa.String(length=320), nullable=True),
        sa.Column('source', sa.String(length=16), nullable=False),
        sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('outcome', sa.String(length=40), nullable=True),
        sa.Column('detail', sa.Text(), nullable=True),
        sa.Column('game_id', sa.String(length=32), nullable=True),
        sa.Column('seat', sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('message_id'))
    op.create_index('ix_inbound_status', 'inbound', ['status'])
    op.create_index('ix_inbound_game_id', 'inbound', ['game_id'])
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('headers', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('board_svg', sa.Text(), nullable=True))
        batch_op.create_index('ix_outbox_to_addr', ['to_addr'])


def downgrade():
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_to_addr')
        batch_op.drop_column('board_svg')
        batch_op.drop_column('headers')
    op.drop_index('ix_inbound_game_id', 'inbound')
    op.drop_index('ix_inbound_status', 'inbound')
    op.drop_table('inbound')
