"""PostgreSQL's commits per second on this machine: pgbench with two transactions of our own.

Each is run with 1, 4 and 16 clients (``--clients``) for ``--seconds`` on a throw-away database
of the server at 127.0.0.1:5432, prepared statements, the server's own settings
(``synchronous_commit`` as it is: on, so each commit waits for the WAL's flush; many clients'
commits share one flush):

- ``bare``: one INSERT of 2 kB in a transaction of its own, the floor of a durable commit;
- ``move``: a move's shape, as ``GameService`` records one: lock a game's row (``FOR UPDATE``)
  among 1,000, update its 2 kB snapshot and version, append to its action log, update a seat,
  commit (five statements, one transaction; games drawn at random, so clients seldom meet).

Prints transactions per second (pgbench's, without connection time) and the load average.

Run: ``python -m bench.pg_commits`` (``--clients``, ``--seconds``, ``--postgres``); needs
``pgbench`` (Debian: postgresql-client / postgresql-contrib).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

from db import pgadmin

SCHEMA = """
CREATE TABLE bare (id BIGSERIAL PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, snapshot TEXT NOT NULL, version INTEGER NOT NULL);
CREATE TABLE actions (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, action TEXT NOT NULL,
                      PRIMARY KEY (game_id, seq));
CREATE TABLE seats (game_id INTEGER NOT NULL, seat INTEGER NOT NULL, shown INTEGER NOT NULL,
                    PRIMARY KEY (game_id, seat));
INSERT INTO games SELECT g, repeat('x', 2048), 0 FROM generate_series(1, 1000) AS g;
INSERT INTO seats SELECT g, s, 0 FROM generate_series(1, 1000) AS g, generate_series(0, 3) AS s;
"""
SCRIPTS = {
    "bare": "INSERT INTO bare (v) VALUES (repeat('x', 2048));\n",
    "move": (
        "\\set g random(1, 1000)\n"
        "BEGIN;\n"
        "SELECT version FROM games WHERE id = :g FOR UPDATE;\n"
        "UPDATE games SET snapshot = repeat('y', 2048), version = version + 1 WHERE id = :g;\n"
        "INSERT INTO actions (game_id, seq, action) "
        "SELECT :g, version, 'play:3' FROM games WHERE id = :g;\n"
        "UPDATE seats SET shown = shown + 1 WHERE game_id = :g AND seat = 0;\n"
        "COMMIT;\n"
    ),
}
TPS = re.compile(r"tps = ([0-9.]+) \(without initial connection time\)")


def tps_of(output: str) -> float:
    """pgbench's transactions per second (without connection time) from its report."""
    found = TPS.search(output)
    if found is None:
        raise ValueError(f"no tps in pgbench's output:\n{output}")
    return float(found[1])


def pgbench(url: str, script: Path, clients: int, seconds: float) -> float:
    done = subprocess.run(
        ["pgbench", "-n", "-M", "prepared", "-f", str(script), "-c", str(clients),
         "-j", str(min(clients, 2)), "-T", str(round(seconds)), url],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    return tps_of(done.stdout)


async def main_async(admin: str, clients: list[int], seconds: float) -> None:
    if shutil.which("pgbench") is None:
        raise SystemExit("bench.pg_commits needs pgbench (Debian: postgresql-client)")
    name = pgadmin.fresh_name("cardtable_commits")
    url = await pgadmin.create_database(admin, name)
    try:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(SCHEMA)
            setting = await conn.fetchval("SHOW synchronous_commit")
        finally:
            await conn.close()
        print(f"synchronous_commit = {setting}; {seconds:.0f} s per line")
        with tempfile.TemporaryDirectory() as tmp:
            for label, text in SCRIPTS.items():
                script = Path(tmp) / f"{label}.sql"
                script.write_text(text)
                for count in clients:
                    tps = await asyncio.to_thread(pgbench, url, script, count, seconds)
                    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
                    print(f"{label:<5} {count:>3} clients: {tps:8.0f} commits/s (load {load})")
    finally:
        await pgadmin.drop_database(admin, name)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--postgres", default=pgadmin.admin_url())
    args = parser.parse_args()
    asyncio.run(main_async(args.postgres, args.clients, args.seconds))
