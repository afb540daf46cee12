"""Sign-ins per second that one accounts process holds, and what argon2id costs.

Run with ``make bench`` (or ``python -m bench.accounts --sign-ins 200``). The accounts
service runs as it does in production (``python -m services.accounts``, SQLite in a
temporary folder, OWASP's argon2id cost), and a client calls ``SignIn`` over gRPC with
``--concurrency`` calls in flight, half of them with a wrong password (which costs the same
hash). Printed: sign-ins per second (wall clock, with the spread over ``--rounds``), and the
service's CPU per sign-in from /proc (the figure the shared machine's noise moves least).
The hash alone is timed in-process too, for the cost of one argon2id check.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

import grpc

from photofinish.accounts.v1 import accounts_pb2, accounts_pb2_grpc
from services.accounts.passwords import Hasher
from services.common.identity import CLIENT_ADDRESS
from services.stack.processes import start_child

PASSWORD = "correct horse battery"
NAMES = 20  # accounts signed in to, in turn
TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """The process's user and system CPU so far, in seconds (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_S


async def hash_cost(checks: int) -> float:
    """Median seconds of one argon2id check at the service's cost, in this process."""
    hasher = Hasher()
    stored = await hasher.hash(PASSWORD)
    times = []
    for _ in range(checks):
        started = time.perf_counter()
        await hasher.check(stored, PASSWORD)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


async def sign_ins(stub: accounts_pb2_grpc.AccountsAsyncStub, count: int, concurrency: int) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(number: int) -> None:
        right = number % 2 == 0
        request = accounts_pb2.SignInRequest(
            username=f"bench{number % NAMES}",
            password=PASSWORD if right else "a wrong password",
            device="bench",
        )
        # Each from its own address, as many players would be: no back-off applies.
        metadata = (
            (
                CLIENT_ADDRESS,
                f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}",
            ),
        )
        async with gate:
            try:
                await stub.SignIn(request, metadata=metadata, timeout=60)
            except grpc.aio.AioRpcError as error:
                if right or error.code() is not grpc.StatusCode.UNAUTHENTICATED:
                    raise

    await asyncio.gather(*(one(n) for n in range(count)))


async def main(args: argparse.Namespace) -> None:
    print(
        f"argon2id check (19 MiB, t=2, p=1), in-process: {await hash_cost(20) * 1000:.1f} ms median"
    )
    with tempfile.TemporaryDirectory() as folder:
        env = {"PF_DATA_DIR": folder, "PF_GRPC_PORT": "0", "PF_METRICS_PORT": "0"}
        child = await start_child("accounts", "services.accounts", env, Path(folder))
        try:
            async with grpc.aio.insecure_channel(child.address("grpc")) as channel:
                stub = accounts_pb2_grpc.AccountsStub(channel)
                for number in range(NAMES):
                    await stub.SignUp(
                        accounts_pb2.SignUpRequest(
                            username=f"bench{number}", password=PASSWORD, device="bench"
                        )
                    )
                rates, cpus = [], []
                for _ in range(args.rounds):
                    before, started = cpu_s(child.process.pid), time.perf_counter()
                    await sign_ins(stub, args.sign_ins, args.concurrency)
                    seconds = time.perf_counter() - started
                    rates.append(args.sign_ins / seconds)
                    cpus.append((cpu_s(child.process.pid) - before) / args.sign_ins)
        finally:
            await child.stop()
    spread = f"{min(rates):.0f}-{max(rates):.0f}"
    print(
        f"accounts: {statistics.median(rates):.0f} sign-ins/s median ({spread} over"
        f" {args.rounds} rounds of {args.sign_ins}, {args.concurrency} in flight, half wrong"
        f" passwords); service CPU {statistics.median(cpus) * 1000:.1f} ms per sign-in"
        f" ({os.cpu_count()} cores, PF_HASH_THREADS=2)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sign-ins", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
