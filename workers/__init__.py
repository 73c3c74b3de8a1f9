"""Celery tasks: rolling chance, sending mail, and the beat sweeps.

Tasks are thin adapters over the contexts (``arbiter.games`` and the others); the
Celery app itself is built by ``arbiter.create_app`` (see ``workers/worker.py`` for the
worker entry point).
"""
