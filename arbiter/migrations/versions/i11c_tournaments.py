"""tournaments: settings, entries, rounds, games and their own append-only log

Revision ID: i11c_tournaments
Revises: i11d_webhooks
Create Date: 2026-12-01

"""
from alembic import op
import sqlalchemy as sa


revision = 'i11c_tournaments'
down_revision = 'i11d_webhooks'
branch_labels = None
depends_on = None

APPEND_ONLY = "tournament events are append-only: UPDATE and DELETE are refused"

SQLITE_TRIGGERS = [
    "CREATE TRIGGER tournament_events_no_update BEFORE UPDATE ON tournament_events "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END",
    "CREATE TRIGGER tournament_events_no_delete BEFORE DELETE ON tournament_events "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END",
]

POSTGRES_TRIGGERS = [
    f"""CREATE FUNCTION tournament_events_append_only() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$""",
    "CREATE TRIGGER tournament_events_no_update BEFORE UPDATE ON tournament_events "
    "FOR EACH ROW EXECUTE FUNCTION tournament_events_append_only()",
    "CREATE TRIGGER tournament_events_no_delete BEFORE DELETE ON tournament_events "
    "FOR EACH ROW EXECUTE FUNCTION tournament_events_append_only()",
    "CREATE TRIGGER tournament_events_no_truncate BEFORE TRUNCATE ON tournament_events "
    "FOR EACH STATEMENT EXECUTE FUNCTION tournament_events_append_only()",
]


def upgrade():
    op.create_table(
        'tournaments',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('engine', sa.String(length=40), nullable=False),
        sa.Column('table_size', sa.Integer(), nullable=False),
        sa.Column('format', sa.String(length=16), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('scoring', sa.JSON(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('clock', sa.JSON(), nullable=False),
        sa.Column('round_seconds', sa.Integer(), nullable=True),
        sa.Column('reliability_threshold', sa.Float(), nullable=True),
        sa.Column('late_entries', sa.Boolean(), nullable=False),
        sa.Column('organiser_account_id', sa.String(length=32), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['organiser_account_id'], ['accounts.id']),
        sa.PrimaryKeyConstraint('id'))
    with op.batch_alter_table('tournaments') as batch:
        batch.create_index('ix_tournaments_organiser_account_id', ['organiser_account_id'])
        batch.create_index('ix_tournaments_status', ['status'])
        batch.create_index('ix_tournaments_deadline', ['deadline'])
        batch.create_index('ix_tournaments_created_at', ['created_at'])
    op.create_table(
        'tournament_entries',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('joined_round', sa.Integer(), nullable=False),
        sa.Column('withdrawn_round', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'account_id',
                            name='uq_tournament_entries_account'))
    with op.batch_alter_table('tournament_entries') as batch:
        batch.create_index('ix_tournament_entries_tournament_id', ['tournament_id'])
        batch.create_index('ix_tournament_entries_account_id', ['account_id'])
    op.create_table(
        'tournament_rounds',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('byes', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.PrimaryKeyConstraint('tournament_id', 'number'))
    op.create_table(
        'tournament_games',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('round', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('table', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('players', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('tournament_id', 'round', 'table'),
        sa.UniqueConstraint('game_id', name='uq_tournament_games_game_id'))
    op.create_table(
        'tournament_events',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.PrimaryKeyConstraint('tournament_id', 'seq'))
    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": SQLITE_TRIGGERS,
                      "postgresql": POSTGRES_TRIGGERS}.get(dialect, []):
        op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION tournament_events_append_only() CASCADE")
    op.drop_table('tournament_events')
    op.drop_table('tournament_games')
    op.drop_table('tournament_rounds')
    op.drop_table('tournament_entries')
    op.drop_table('tournaments')
