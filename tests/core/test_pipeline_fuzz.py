"""Property: arbitrary bodies, headers and encodings through the whole
pipeline never crash it, and without a valid token never change a game."""

from __future__ import annotations

import email.policy
import tempfile
from email.message import EmailMessage
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge import config as cfg
from judge.service import Judge
from tests.core.conftest import Clock, Post
from tests.core.helpers import start_sealed

LINES = st.sampled_from([
    "SIGNON g1 North notthetoken", "SIGNON g1 GM guess", "BID 7H", "KEEP", "GIVE East",
    "ORDERS", "END", "PRESS TO ALL", "ENDPRESS", "WAIT", "DRAW", "STATUS", "RESIGN",
    "START", "PROCESS", "ROLLBACK", "EJECT North", "REPLACE North x@y.example", "EXTEND 5",
    "SET DEADLINE 2030-01-01 12:00", "> SIGNON g1 North x", "-- ", "HELP", "JOIN g1 West",
    # the shapes of hostile mail: look-alike and fullwidth words, bidi controls,
    # floods, stale blocks, values that could break the code
    "ＳＩＧＮＯＮ g1 North ｎｏｔｔｈｅｔｏｋｅｎ", "SIGNON G1 NORTH notthetoken", "JOIN g1 Narnia",
    "JOIN fg", "CREATE x1 sealed_bids", "CREATE spr\u0456ng26 sealed_bids",
    "CREATE spring２６ sealed_bids", "attack \u202enow\u202c", "ORDERS S1901M",
    "POLICY gift PASS WHEN to me", "POLICY", "QUEUE", "CANCEL ALL", "CANCEL 99",
    "SET MAIL each", "SET ACK errors", "SET DEADLINE 9999-12-31 23:59",
    "REPLACE North a@b.example,c@d.example", "SET grace_hours nan", "EXTEND 1e308",
    "k7mq2x9adf3pzz2v", "ADMIT x@y.example", "REMOVE North",
])
FLOOD = st.sampled_from(["PRESS TO ALL\nhi\nENDPRESS", "CREATE f sealed_bids", "JOIN g1",
                         "STATUS"]).flatmap(
    lambda line: st.integers(min_value=2, max_value=60).map(lambda n: "\n".join([line] * n)))
TEXT = st.lists(st.one_of(LINES, st.text(max_size=80), FLOOD), max_size=12).map("\n".join)
CHARSETS = st.sampled_from(["utf-8", "iso-8859-1", "windows-1252", "koi8-r", "gb2312",
                            "x-unknown-charset", "utf-16"])
ENCODINGS = st.sampled_from(["7bit", "8bit", "base64", "quoted-printable"])
HEADERS = st.dictionaries(
    st.sampled_from(["Auto-Submitted", "Precedence", "List-Id", "Return-Path", "Reply-To",
                     "Content-Type", "In-Reply-To", "X-Autoreply", "Subject"]),
    st.text(max_size=40).filter(lambda s: "\n" not in s and "\r" not in s),
    max_size=3,
)


def _mail(sender: str, body: str, charset: str, cte: str, headers: dict[str, str]) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "judge@localhost"
    msg["Message-ID"] = f"<{abs(hash((body, charset, cte, sender)))}@fuzz.example>"
    try:
        encoded = body.encode(charset, errors="replace") if charset != "x-unknown-charset" \
            else body.encode("utf-8", errors="replace")
    except LookupError:
        encoded = body.encode("utf-8", errors="replace")
    msg.set_payload(encoded)
    msg["Content-Type"] = f"text/plain; charset={charset}"
    msg["Content-Transfer-Encoding"] = "8bit"
    raw = msg.as_bytes(policy=email.policy.compat32)
    if cte == "base64":
        import base64

        head, _, payload = raw.partition(b"\n\n")
        cte_header = b"Content-Transfer-Encoding: "
        head = head.replace(cte_header + b"8bit", cte_header + b"base64")
        raw = head + b"\n\n" + base64.encodebytes(payload)
    extra = "".join(f"{k}: {v}\n" for k, v in headers.items()).encode("utf-8", "replace")
    return extra + raw


class Bench:
    def __init__(self) -> None:
        self.dir = tempfile.TemporaryDirectory()
        home = Path(self.dir.name) / "home"
        cfg.init_home(home)
        self.clock = Clock()
        self.judge = Judge.open(home, now=self.clock)
        self.post = Post(self.judge, home, self.clock)
        self.seats = start_sealed(self.post)

    def fingerprint(self) -> tuple[object, ...]:
        store = self.judge.store
        return (store.game("g1"), [s.__dict__ for s in store.seats("g1")],
                len(store.actions("g1")), store.deadline("g1"))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=TEXT, charset=CHARSETS, cte=ENCODINGS, headers=HEADERS,
       sender=st.sampled_from(["north@players.example", "east@players.example",
                               "gm@league.example", "mallory@evil.example", "", "<>",
                               "not an address"]),
       raw_noise=st.binary(max_size=200))
def test_pipeline_never_crashes_and_never_changes_state_without_a_token(
    body: str, charset: str, cte: str, headers: dict[str, str], sender: str, raw_noise: bytes
) -> None:
    bench = BENCH
    before = bench.fingerprint()
    for i, raw in enumerate((_mail(sender, body, charset, cte, headers), raw_noise)):
        line = bench.judge.handle(f"fuzz-{i}", raw)
        assert "failed" not in line.split(":", 1)[0]
    assert bench.fingerprint() == before


BENCH: Bench


def setup_module() -> None:
    global BENCH
    from judge.game import registry
    from judge.store import set_kdf_cost
    from tests.games import add_report_files
    from tests.games.sealed_bids import GAME

    set_kdf_cost(2**8)
    registry.register(GAME)
    add_report_files()
    add_report_files()
    BENCH = Bench()


def teardown_module() -> None:
    BENCH.judge.close()
    BENCH.dir.cleanup()
