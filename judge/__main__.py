"""``python -m judge``: the ``judge`` command."""

from judge.entry import run

if __name__ == "__main__":
    run()
