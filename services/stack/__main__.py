"""`make run`: start the whole arena on this machine and print where to play."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from prometheus_client import start_http_server

from runtime.stopping import wait_for_stop_signal
from services.common.natsurl import servers_of
from services.stack import natsauth
from services.stack.stack import OPS_PASSWORD_FILE, Ports, StackConfig, run_stack
from services.stack.supervise import Supervisor

# Project ports, away from the usual ones (a system NATS on 4222 keeps running).
PROJECT_PORTS = Ports(
    nats=7422,
    rules=7101,
    arbitration=7102,
    matchmaking=7103,
    ratings=7104,
    tournaments=7105,
    accounts=7106,
    gateway=7100,
    metrics_base=7200,
)
SUPERVISOR_METRICS_PORT = 7209  # pf_restarts_total, for the ops page


async def main(args: argparse.Namespace) -> None:
    config = StackConfig(
        data_dir=Path(args.data_dir).resolve(),
        ports=PROJECT_PORTS,
        nats_url=os.environ.get("NATS_URL", ""),
        database_url=os.environ.get("DATABASE_URL", ""),
        token_key=os.environ.get("PF_TOKEN_KEY", "") or StackConfig(Path()).token_key,
        echo=args.verbose,
        # More than one shares the matches and fails over between them (docs/failover.md).
        arbitration_instances=int(os.environ.get("PF_ARBITRATION_INSTANCES", "1")),
        extra_metrics_targets=(("supervisor", f"127.0.0.1:{SUPERVISOR_METRICS_PORT}"),),
    )
    start_http_server(SUPERVISOR_METRICS_PORT, addr="127.0.0.1")
    async with run_stack(config) as stack:
        supervisor = asyncio.create_task(Supervisor(stack).run())
        host, port = servers_of(stack.nats_url)[0]
        if stack.nats_urls:
            natsauth.save_operator_url(config.data_dir, stack.nats_url)
        users = "one user per service, new passwords each start" if stack.nats_urls else "as given"
        # A name, not an address: passkeys (WebAuthn) need one, and localhost is a secure
        # context over plain HTTP; the gateway's passkey origin is this one by default.
        page = f"http://localhost:{PROJECT_PORTS.gateway}"
        print(
            f"\nPhoto Finish is running.\n"
            f"  Play in a browser:  {page}/\n"
            f"  Play in a terminal: .venv/bin/python -m clients.cli --url {page}\n"
            f"  Ops page:           {page}/ops  (user operator, password in"
            f" {config.data_dir / OPS_PASSWORD_FILE}, new each start)\n"
            f"  Fair-play queue:    {page}/#fair-play  (operators: make operator NAME=…)\n"
            f"  Gateway's metrics:  http://{stack.address('gateway', 'metrics')}/metrics\n"
            f"  NATS:               nats://{host}:{port}  ({users})\n"
            f"  Logs:               {config.data_dir / 'logs'}\n"
            f"Press Ctrl-C to stop everything.\n",
            flush=True,
        )
        await wait_for_stop_signal()
        print("Stopping…", flush=True)
        supervisor.cancel()  # nothing is started again while everything stops


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", default="var", help="where NATS, SQLite and logs live")
    parser.add_argument("--verbose", action="store_true", help="echo every service's log")
    asyncio.run(main(parser.parse_args()))
