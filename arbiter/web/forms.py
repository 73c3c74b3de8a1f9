"""The page's forms (Flask-WTF: each carries a CSRF token tied to the session)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    widgets,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, Regexp

from arbiter.accounts.identity import SCOPES
from arbiter.hooks.webhooks import EVENTS


class MultiCheckboxField(SelectMultipleField):
    """Several choices as checkboxes (WTForms' documented recipe)."""

    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


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


class BackForm(FlaskForm):
    """ "I'm back": taking the viewing seat back from the autopilot (an
    Idempotency-Key as for moves)."""

    key = HiddenField(validators=[InputRequired(), Length(min=16, max=200)])


class TokenForm(FlaskForm):
    """Opening a seat with its seat token (games created over REST, without mail)."""

    token = StringField("Seat token", validators=[InputRequired(), Length(max=200)])


class LeaveForm(FlaskForm):
    """Forgetting the seat this browser holds (only the CSRF token)."""


class ByeForm(FlaskForm):
    """Asking for a bye in a coming round of a Swiss (or taking the request back)."""

    round = IntegerField("Round", validators=[InputRequired(), NumberRange(min=1, max=100)])
    bye = SelectField(
        "Bye",
        choices=[
            SelectChoice("half", "a half-point bye (a draw's points)"),
            SelectChoice("zero", "sit the round out (no points)"),
            SelectChoice("none", "no bye: pair me"),
        ],
        validators=[InputRequired()],
    )


class SignInForm(FlaskForm):
    """Asking for a sign-in link by mail."""

    email = StringField(
        "Your email address",
        validators=[
            InputRequired(),
            Length(max=254),
            Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Write an email address."),
        ],
    )
    name = StringField("Your name (for a new account)", validators=[Optional(), Length(max=80)])


class ConfirmForm(FlaskForm):
    """Using a mailed sign-in link (its address and token, hidden)."""

    email = HiddenField(validators=[InputRequired(), Length(max=254)])
    token = HiddenField(validators=[InputRequired(), Length(max=200)])


class TokenCreateForm(FlaskForm):
    """Making a personal API token: a name, its scopes, an optional lifetime in days."""

    name = StringField("Name", validators=[InputRequired(), Length(max=80)])
    scopes = MultiCheckboxField("Scopes", choices=list(SCOPES), validators=[InputRequired()])
    days = IntegerField(
        "Expires after (days, empty: never)", validators=[Optional(), NumberRange(min=1, max=3650)]
    )


class BotCreateForm(FlaskForm):
    """Making a bot account: its name, and whether anybody may seat it."""

    name = StringField("Name", validators=[InputRequired(), Length(max=80)])
    public = BooleanField("Anybody may seat it in their games")


class WebhookCreateForm(FlaskForm):
    """Registering a web hook: a URL and the events it wants."""

    url = StringField("URL", validators=[InputRequired(), Length(max=2000)])
    events = MultiCheckboxField("Events", choices=list(EVENTS), validators=[InputRequired()])


class WebhookEventsForm(FlaskForm):
    """Changing the events of a web hook."""

    events = MultiCheckboxField("Events", choices=list(EVENTS), validators=[InputRequired()])
