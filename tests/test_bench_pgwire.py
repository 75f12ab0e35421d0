"""``bench.pgwire``: round trips, transactions and statements read off PostgreSQL's wire."""

from __future__ import annotations

import struct

from bench.pgwire import SSL_REQUEST, Conversation, WireCounts, statement_key


def untyped(code: int, body: bytes = b"") -> bytes:
    return struct.pack("!ii", 8 + len(body), code) + body


def message(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("!i", 4 + len(body)) + body


def ready(status: bytes) -> bytes:
    return message(b"Z", status)


def done(tag: str) -> bytes:
    return message(b"C", tag.encode() + b"\0")


def parse(name: str, text: str) -> bytes:
    return message(b"P", name.encode() + b"\0" + text.encode() + b"\0" + b"\0\0")


def bind(name: str) -> bytes:
    return message(b"B", b"\0" + name.encode() + b"\0" + b"\0\0\0\0\0\0")


def query(text: str) -> bytes:
    return message(b"Q", text.encode() + b"\0")


def started(counts: WireCounts) -> Conversation:
    """A conversation past an SSLRequest refused ('N'), the startup and its first ready."""
    talk = Conversation(counts)
    talk.from_client(untyped(SSL_REQUEST))
    talk.from_server(b"N")
    talk.from_client(untyped(196608, b"user\0postgres\0\0"))
    talk.from_server(message(b"R", b"\0\0\0\0") + ready(b"I"))
    return talk


def test_a_transaction_a_statement_alone_and_a_rollback() -> None:
    counts = WireCounts()
    talk = started(counts)
    assert counts.connections == 1 and counts.round_trips == 0  # the startup is no query
    # BEGIN, a prepared statement executed twice inside, COMMIT: four round trips.
    talk.from_client(query("BEGIN;"))
    talk.from_server(done("BEGIN") + ready(b"T"))
    talk.from_client(parse("s1", "SELECT  *\n FROM games WHERE id = $1") + message(b"S", b""))
    talk.from_server(message(b"1", b"") + ready(b"T"))
    for _ in range(2):
        talk.from_client(bind("s1") + message(b"E", b"\0\0\0\0\0") + message(b"S", b""))
        talk.from_server(done("SELECT 1") + ready(b"T"))
    talk.from_client(query("COMMIT;"))
    talk.from_server(done("COMMIT") + ready(b"I"))
    # A statement in a transaction of its own, then a transaction that failed.
    talk.from_client(query("SELECT take_rest_slot('global', 40, 1.0)"))
    talk.from_server(done("SELECT 1") + ready(b"I"))
    talk.from_client(query("BEGIN;"))
    talk.from_server(done("BEGIN") + ready(b"T"))
    talk.from_client(query("SELECT 1/0"))
    talk.from_server(message(b"E", b"SERROR\0\0") + ready(b"E"))
    talk.from_client(query("ROLLBACK;"))
    talk.from_server(done("ROLLBACK") + ready(b"I"))
    assert counts.round_trips == 9
    assert (counts.commits, counts.rollbacks, counts.autocommit) == (1, 1, 1)
    assert counts.statements["SELECT * FROM games WHERE id = $1"] == 2
    assert counts.statements["SELECT take_rest_slot('global', 40, 1.0)"] == 1
    assert counts.statements["BEGIN;"] == 2


def test_messages_split_anywhere_between_reads_are_read_whole() -> None:
    counts = WireCounts()
    talk = started(counts)
    stream = (done("SELECT 1") + ready(b"I")) * 3
    for i in range(len(stream)):  # one byte at a time
        talk.from_server(stream[i : i + 1])
    assert counts.round_trips == 3 and counts.autocommit == 3


def test_a_tls_connection_is_counted_as_unreadable_and_left_alone() -> None:
    counts = WireCounts()
    talk = Conversation(counts)
    talk.from_client(untyped(SSL_REQUEST))
    talk.from_server(b"S" + b"\x16\x03\x01 random TLS bytes")
    talk.from_server(ready(b"I"))
    assert counts.unreadable == 1 and counts.connections == 0 and counts.round_trips == 0


def test_counts_since_a_copy() -> None:
    counts = WireCounts(round_trips=5, commits=2)
    counts.statements["a"] = 3
    earlier = counts.copy()
    counts.round_trips += 4
    counts.statements["a"] += 1
    counts.statements["b"] += 2
    since = counts.minus(earlier)
    assert (since.round_trips, since.commits) == (4, 0)
    assert dict(since.statements) == {"a": 1, "b": 2}


def test_long_statements_are_shortened() -> None:
    key = statement_key("SELECT " + "x, " * 100 + "y")
    assert len(key) == 72 and key.endswith("...")
