"""The mail transport, in and out: Maildir, IMAP and SMTP, decoding, bounds,
quotes and typography, redaction, the HTML part and delivery reports.

It knows no game: nothing here imports :mod:`judge.game`, the store or the
stations (``tests/core/test_wings.py``).
"""
