"""mail retry: a back-off time per outbox mail (short, growing, capped) and when a mail
was given up, instead of a fixed 5-minute claim and 10 tries

Revision ID: i16b_mail_retry
Revises: i11a_ratings
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i16b_mail_retry'
down_revision = 'i11a_ratings'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('outbox') as batch:
        batch.add_column(sa.Column('retry_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('given_up_at', sa.DateTime(timezone=True), nullable=True))
        batch.create_index('ix_outbox_retry_at', ['retry_at'])
    # a mail claimed or backing off under the old rule may be tried again at once;
    # one that used up the old 10 tries stays given up
    op.execute("UPDATE outbox SET retry_at = claimed_at WHERE sent_at IS NULL")
    op.execute("UPDATE outbox SET given_up_at = claimed_at "
               "WHERE sent_at IS NULL AND attempts >= 10")


def downgrade():
    with op.batch_alter_table('outbox') as batch:
        batch.drop_index('ix_outbox_retry_at')
        batch.drop_column('given_up_at')
        batch.drop_column('retry_at')
