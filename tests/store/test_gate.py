"""The SQLite connection's gate: self-contained calls queue together, a transaction of several
calls has the connection to itself, and waits its turn without being starved."""

from __future__ import annotations

import asyncio

from db.gate import Gate


async def _use(gate: Gate, kind: str, name: str, log: list[str], hold: asyncio.Event) -> None:
    enter = gate.shared() if kind == "shared" else gate.exclusive()
    async with enter:
        log.append(f"+{name}")
        await hold.wait()
        log.append(f"-{name}")


async def test_shared_calls_overlap_and_a_transaction_waits_for_them() -> None:
    gate = Gate()
    log: list[str] = []
    first, second, tx_hold = asyncio.Event(), asyncio.Event(), asyncio.Event()
    a = asyncio.create_task(_use(gate, "shared", "a", log, first))
    b = asyncio.create_task(_use(gate, "shared", "b", log, second))
    await asyncio.sleep(0.01)
    assert log == ["+a", "+b"]  # both under way at once
    tx = asyncio.create_task(_use(gate, "exclusive", "tx", log, tx_hold))
    await asyncio.sleep(0.01)
    late_hold = asyncio.Event()
    late = asyncio.create_task(_use(gate, "shared", "late", log, late_hold))
    await asyncio.sleep(0.01)
    assert "+tx" not in log and "+late" not in log  # tx waits; the late call waits behind it
    first.set()
    second.set()
    await asyncio.sleep(0.01)
    assert log[-1] == "+tx"
    tx_hold.set()
    late_hold.set()
    await asyncio.gather(a, b, tx, late)
    assert log == ["+a", "+b", "-a", "-b", "+tx", "-tx", "+late", "-late"]


async def test_a_failing_shared_call_releases_the_gate() -> None:
    gate = Gate()
    try:
        async with gate.shared():
            raise RuntimeError("the read failed")
    except RuntimeError:
        pass
    async with asyncio.timeout(1):
        async with gate.exclusive():
            pass


async def test_reads_held_back_by_a_transaction_all_go_at_once_after_it() -> None:
    gate = Gate()
    log: list[str] = []
    tx_hold, reads_hold = asyncio.Event(), asyncio.Event()
    tx = asyncio.create_task(_use(gate, "exclusive", "tx", log, tx_hold))
    await asyncio.sleep(0.01)
    reads = [
        asyncio.create_task(_use(gate, "shared", f"r{n}", log, reads_hold)) for n in range(100)
    ]
    await asyncio.sleep(0.01)
    assert log == ["+tx"]
    tx_hold.set()
    await tx
    for _ in range(2):  # a turn or two of the event loop, not one per read
        await asyncio.sleep(0)
    assert sum(entry.startswith("+r") for entry in log) == 100
    reads_hold.set()
    await asyncio.gather(*reads)
