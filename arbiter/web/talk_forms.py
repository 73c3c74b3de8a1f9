"""The talk panel's forms (Flask-WTF, each with its CSRF token): a message, a note,
and the one-button actions on a message (hide, report, mute, unmute)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional


class MessageForm(FlaskForm):
    """A message: its channel, the seat of a private one, its text, and a key made
    when the page was drawn (a double click posts once). The lengths are checked by
    the service (a clear message, nothing written)."""

    channel = SelectField(
        "Channel",
        choices=[SelectChoice(c, c) for c in ("table", "private", "spectators")],
        validate_choice=False,
    )
    to = IntegerField("To", validators=[Optional(), NumberRange(min=0, max=2**31 - 1)])
    text = TextAreaField("Message", validators=[Optional(), Length(max=100_000)])
    key = HiddenField(validators=[InputRequired(), Length(min=16, max=200)])


class NoteForm(FlaskForm):
    """A private note, with its key."""

    text = TextAreaField("Note", validators=[Optional(), Length(max=100_000)])
    key = HiddenField(validators=[InputRequired(), Length(min=16, max=200)])


class ActionForm(FlaskForm):
    """Hide, report, mute or unmute message ``n`` (the action is the URL's);
    ``reason`` for a report."""

    reason = StringField("Why", validators=[Optional(), Length(max=500)])
