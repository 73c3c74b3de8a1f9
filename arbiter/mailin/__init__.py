"""Inbound mail: the email channel, equal to REST (see docs/playing/email.md).

Every message is stored raw first (:func:`arbiter.mailin.receive.receive`), then a
task processes it (:func:`arbiter.mailin.process.process`): it drops automatic mail,
checks the capability reply address and the sender, reads the commands of the body
and runs each through the same service calls as the REST routes, then answers in
the thread. The SMTP listener (``mailin`` in the Procfile), ``arbiter mail-in`` and
IMAP polling are the three ways in.
"""
