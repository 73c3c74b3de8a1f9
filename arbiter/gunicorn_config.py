"""gunicorn settings of the ``web`` process (``gunicorn -c python:arbiter.gunicorn_config``).

``HOST`` (default ``127.0.0.1``: only this machine) and ``PORT`` (default 8000) say
where it listens; set ``HOST=0.0.0.0`` behind a proxy or load balancer. Two workers
of 32 threads each (``WEB_WORKERS``, ``WEB_THREADS``); each long-poll holds a thread.
Errors gunicorn answers itself are problem+json (``arbiter.serve.ProblemWorker``).
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
worker_class = "arbiter.serve.ProblemWorker"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "32"))
accesslog = "-"
