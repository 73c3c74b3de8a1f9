"""seats.open: a public table's seat that anyone signed in may take (the lobby)

Revision ID: i23a_open_seats
Revises: i28a_tournament_service
Create Date: 2026-12-02

"""
from alembic import op
import sqlalchemy as sa


revision = 'i23a_open_seats'
down_revision = 'i28a_tournament_service'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats') as batch:
        batch.add_column(
            sa.Column('open', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('open')
