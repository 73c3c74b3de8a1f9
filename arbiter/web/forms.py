"""The page's forms (Flask-WTF: each carries a CSRF token tied to the session)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, StringField
from wtforms.validators import InputRequired, Length, Optional


class MoveForm(FlaskForm):
    """A move: the JSON of a legal move (a button or the list) or text in the game's
    notation, the version the page showed and an Idempotency-Key made when the page
    was drawn (so a double click records one move)."""

    move = HiddenField(validators=[Optional(), Length(max=8000)])
    choice = StringField(validators=[Optional(), Length(max=8000)])
    text = StringField("Or write your move", validators=[Optional(), Length(max=500)])
    expected_version = IntegerField(validators=[InputRequired()])
    key = HiddenField(validators=[InputRequired(), Length(min=16, max=200)])


class ResignForm(FlaskForm):
    """Resigning the viewing seat (an Idempotency-Key as for moves)."""

    key = HiddenField(validators=[InputRequired(), Length(min=16, max=200)])


class TokenForm(FlaskForm):
    """Opening a seat with its seat token (games created over REST, without mail)."""

    token = StringField("Seat token", validators=[InputRequired(), Length(max=200)])


class LeaveForm(FlaskForm):
    """Forgetting the seat this browser holds (only the CSRF token)."""
