"""outbox board PNG: the picture rendered for a mail that could not be sent is kept
until it is, so a retry (the backlog after an SMTP outage) does not render it again

Revision ID: i16c_outbox_png
Revises: i10b_consent
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i16c_outbox_png'
down_revision = 'i10b_consent'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('outbox') as batch:
        batch.add_column(sa.Column('board_png', sa.LargeBinary(), nullable=True))


def downgrade():
    with op.batch_alter_table('outbox') as batch:
        batch.drop_column('board_png')
