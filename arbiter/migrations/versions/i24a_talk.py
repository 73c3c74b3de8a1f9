"""talk: a game's messages and notes (talk_events, append-only), the mutes of an
account (talk_mutes), the creator's talk options (games.talk) and the game's last message (games.talk_n)

Revision ID: i24a_talk
Revises: i28a_tournament_service
Create Date: 2026-12-02

"""
from alembic import op
import sqlalchemy as sa


revision = 'i24a_talk'
down_revision = "i23a_open_seats"
branch_labels = None
depends_on = None

APPEND_ONLY = "talk events are append-only: UPDATE and DELETE are refused"

SQLITE_TRIGGERS = [
    "CREATE TRIGGER talk_events_no_update BEFORE UPDATE ON talk_events "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END",
    "CREATE TRIGGER talk_events_no_delete BEFORE DELETE ON talk_events "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END",
]

POSTGRES_TRIGGERS = [
    f"""CREATE FUNCTION talk_events_append_only() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$""",
    "CREATE TRIGGER talk_events_no_update BEFORE UPDATE ON talk_events "
    "FOR EACH ROW EXECUTE FUNCTION talk_events_append_only()",
    "CREATE TRIGGER talk_events_no_delete BEFORE DELETE ON talk_events "
    "FOR EACH ROW EXECUTE FUNCTION talk_events_append_only()",
    "CREATE TRIGGER talk_events_no_truncate BEFORE TRUNCATE ON talk_events "
    "FOR EACH STATEMENT EXECUTE FUNCTION talk_events_append_only()",
]


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('talk', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('talk_n', sa.Integer(), nullable=True))
    op.create_table(
        'talk_events',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('n', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('channel', sa.String(length=16), nullable=True),
        sa.Column('seat', sa.Integer(), nullable=True),
        sa.Column('to_seat', sa.Integer(), nullable=True),
        sa.Column('author', sa.String(length=80), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('game_id', 'n'))
    op.create_index('ix_talk_events_author_at', 'talk_events', ['author', 'at'])
    op.create_table(
        'talk_mutes',
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('author', sa.String(length=80), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id']),
        sa.PrimaryKeyConstraint('account_id', 'author'))
    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": SQLITE_TRIGGERS,
                      "postgresql": POSTGRES_TRIGGERS}.get(dialect, []):
        op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION talk_events_append_only() CASCADE")
    op.drop_table('talk_mutes')
    op.drop_index('ix_talk_events_author_at', table_name='talk_events')
    op.drop_table('talk_events')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('talk_n')
        batch.drop_column('talk')
