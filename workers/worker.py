"""The worker and beat entry point: ``celery -A workers.worker worker`` / ``beat``."""

from arbiter import create_app

flask_app = create_app()
celery_app = flask_app.extensions["celery"]
