"""mailboxes: consent kept per mailbox (plus-tags and case folded), an invitation's
mailbox and inviter (the daily budget of invited addresses), a mailbox that opted out
of all mail, and sign-in links counted per mailbox and per client in the database

Revision ID: i22a_mailboxes
Revises: i16c_outbox_png
Create Date: 2026-12-08

"""
from alembic import op
import sqlalchemy as sa


revision = 'i22a_mailboxes'
down_revision = 'i16c_outbox_png'
branch_labels = None
depends_on = None


def fold(email):
    """The mailbox of an address, as ``arbiter.mail.mailboxes.mailbox`` folds it
    (copied: a migration keeps the rule of its day)."""
    address = email.strip().lower()
    local, at, domain = address.rpartition('@')
    if not at:
        return address
    return f"{local.split('+', 1)[0] or local}@{domain}"


def upgrade():
    with op.batch_alter_table('mail_addresses') as batch:
        batch.add_column(sa.Column('opted_out_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('invitations') as batch:
        batch.add_column(sa.Column('mailbox', sa.String(length=254), nullable=True))
        batch.add_column(sa.Column('inviter', sa.String(length=254), nullable=True))
        batch.create_index('ix_invitations_inviter_created_at', ['inviter', 'created_at'])
    with op.batch_alter_table('sign_in_links') as batch:
        batch.add_column(sa.Column('mailbox', sa.String(length=254), nullable=True))
        batch.add_column(sa.Column('client', sa.String(length=64), nullable=True))
        batch.create_index('ix_sign_in_links_mailbox_created_at', ['mailbox', 'created_at'])
        batch.create_index('ix_sign_in_links_client_created_at', ['client', 'created_at'])
    conn = op.get_bind()
    _fold_addresses(conn)
    for email, at in conn.execute(sa.text(
        "SELECT email, MAX(at) FROM consent_events WHERE kind = 'unsubscribed-all' GROUP BY email"
    )).fetchall():
        conn.execute(
            sa.text("UPDATE mail_addresses SET opted_out_at = :at WHERE email = :e"),
            {"at": at, "e": fold(email)},
        )
    for row in conn.execute(sa.text(
        "SELECT invitations.id, invitations.email, accounts.email FROM invitations "
        "JOIN games ON games.id = invitations.game_id "
        "LEFT JOIN accounts ON accounts.id = games.creator_account_id"
    )).fetchall():
        conn.execute(
            sa.text("UPDATE invitations SET mailbox = :m, inviter = :i WHERE id = :id"),
            {"m": fold(row[1]), "i": fold(row[2]) if row[2] else None, "id": row[0]},
        )
    for row in conn.execute(sa.text("SELECT nonce_hash, email FROM sign_in_links")).fetchall():
        conn.execute(
            sa.text("UPDATE sign_in_links SET mailbox = :m WHERE nonce_hash = :n"),
            {"m": fold(row[1]), "n": row[0]},
        )


def _fold_addresses(conn):
    """Merge the rows of one mailbox's spellings into one (earliest times kept)."""
    rows = conn.execute(
        sa.text("SELECT email, invited_at, blocked_at FROM mail_addresses")
    ).fetchall()
    merged = {}
    for email, invited, blocked in rows:
        key = fold(email)
        was = merged.get(key, (None, None))
        merged[key] = (
            min([t for t in (was[0], invited) if t is not None], default=None),
            min([t for t in (was[1], blocked) if t is not None], default=None),
        )
    if len(merged) == len(rows) and all(fold(r[0]) == r[0] for r in rows):
        return
    conn.execute(sa.text("DELETE FROM mail_addresses"))
    for email, (invited, blocked) in merged.items():
        conn.execute(
            sa.text(
                "INSERT INTO mail_addresses (email, invited_at, blocked_at) "
                "VALUES (:e, :i, :b)"
            ),
            {"e": email, "i": invited, "b": blocked},
        )


def downgrade():
    with op.batch_alter_table('sign_in_links') as batch:
        batch.drop_index('ix_sign_in_links_client_created_at')
        batch.drop_index('ix_sign_in_links_mailbox_created_at')
        batch.drop_column('client')
        batch.drop_column('mailbox')
    with op.batch_alter_table('invitations') as batch:
        batch.drop_index('ix_invitations_inviter_created_at')
        batch.drop_column('inviter')
        batch.drop_column('mailbox')
    with op.batch_alter_table('mail_addresses') as batch:
        batch.drop_column('opted_out_at')
