"""ratings: per account and engine (openskill Plackett-Luce); games say whether rated

Revision ID: i11a_ratings
Revises: i9a_mail_in
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i11a_ratings'
down_revision = 'i9a_mail_in'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'ratings',
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('engine', sa.String(length=40), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id']),
        sa.PrimaryKeyConstraint('account_id', 'engine'))
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('rated', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.drop_column('rated')
    op.drop_table('ratings')
