"""The deployment's checks, in order: up and healthy, closed to strangers, monitored, loaded,
faulted, recovered.

Each step records its figures and any failure; a failure does not stop the steps that
can still run, so one run says as much as it can.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import aiohttp

from clients.cli.words import speaking, t
from services.stack import natsauth
from tools.deploy import compose, crossing, jetstream, loadrun, prometheus
from tools.deploy.compose import Deployment
from tools.deploy.host import WORK
from tools.deploy.intruder import ALLOWED, Attempt, answer
from wire.subjects import LOG_STREAM, MATCH_SEATS_ALL

# The host ports the deployment publishes, chosen free at each run (this machine runs
# its own NATS, PostgreSQL, and tests on ports of their own).
PORT_SETTINGS = (
    "PF_GATEWAY_PORT",
    "PF_GATEWAY_1_PORT",
    "PF_PROMETHEUS_PORT",
    "PF_NATS_PORT",
    "PF_NATS_1_PORT",
    "PF_NATS_2_PORT",
)
NATS_NODES = {"nats": "nats-0", "nats-1": "nats-1", "nats-2": "nats-2"}  # service: server name
NATS_PORT_OF = {"nats": "PF_NATS_PORT", "nats-1": "PF_NATS_1_PORT", "nats-2": "PF_NATS_2_PORT"}
# Started in this order, each group healthy before the next (podman-compose 1.0 only
# orders starts; it does not wait for health).
INFRA = ("nats", "nats-1", "nats-2", "postgres", "prometheus")
STAGES = (
    ("rules",),
    ("arbitration", "arbitration-1"),
    ("ratings", "tournaments", "accounts"),
    ("matchmaking",),
    ("gateway", "gateway-1"),
)
KILLED_ARBITRATION = "arbitration-1"
KILL_AT_S = 20.0
NATS_DOWN_S = 10.0
ALERT = "ServiceDown"
ALERT_TIMEOUT_S = 180.0
OUTAGE_LIMIT_S = 30.0  # client errors must stop within this long of the kills
TARGETS_TIMEOUT_S = 90.0


def free_ports() -> dict[str, str]:
    """Return a free loopback port for each of PORT_SETTINGS."""
    sockets = [socket.socket() for _ in PORT_SETTINGS]
    try:
        for each in sockets:
            each.bind(("127.0.0.1", 0))
        return {
            name: str(s.getsockname()[1]) for name, s in zip(PORT_SETTINGS, sockets, strict=True)
        }
    finally:
        for each in sockets:
            each.close()


class Scenario:
    """One run of the checks against a deployment created from ``env``."""

    def __init__(self, env: Mapping[str, str], prometheus_image: str, players: int, seconds: float):
        self.env = dict(env)
        self.prometheus_image = prometheus_image
        self.players = players
        self.seconds = seconds
        self.failures: list[str] = []
        self.figures: dict[str, Any] = {}
        self.deployment: Deployment | None = None

    def url(self, port: str, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.env[port]}"

    def nats_url(self, port: str) -> str:
        """Return the NATS node published at host port setting ``port``, as the operator:
        the checks read the streams, which no service's user may."""
        password = self.password("operator")
        return f"nats://operator:{password}@127.0.0.1:{self.env[port]}"

    def password(self, user: str) -> str:
        return self.env[natsauth.password_variable(user)]

    def fail(self, text: str) -> None:
        print(f"  FAILED: {text}", flush=True)
        self.failures.append(text)

    async def run(self) -> dict[str, Any]:
        """Return the figures and failures of every step."""
        try:
            await self.bring_up()
            await asyncio.to_thread(self.check_terminal_client)
            await self.check_strangers()
            async with aiohttp.ClientSession() as http:
                watcher = prometheus.Prometheus(http, self.url("PF_PROMETHEUS_PORT"))
                await self.check_monitoring(watcher)
                await self.load_with_faults(watcher)
        except Exception as error:  # a step that cannot go on: say why, tear down after
            self.fail(f"{type(error).__name__}: {error}")
            self.figures["logs"] = self._logs()
        return {"figures": self.figures, "failures": self.failures}

    def _logs(self) -> dict[str, str]:
        if self.deployment is None:
            return {}
        return {name: self.deployment.logs(name) for name in self.deployment.containers}

    async def bring_up(self) -> None:
        started = time.monotonic()
        deployment = await asyncio.to_thread(Deployment.create, self.env)
        self.deployment = deployment
        print(f"created {len(deployment.containers)} containers", flush=True)
        deployment.start(*INFRA)
        await asyncio.to_thread(deployment.wait_healthy, INFRA)
        nats_url = self.nats_url("PF_NATS_PORT")
        await jetstream.wait_ready(nats_url)
        for stage in STAGES:  # the services declare the streams and buckets at 3 replicas
            deployment.start(*stage)
            await asyncio.to_thread(deployment.wait_healthy, stage)
        deployment.start("bots")
        replicated = await jetstream.wait_replicated(nats_url)
        self.figures["seconds_to_healthy"] = round(time.monotonic() - started, 1)
        self.figures["jetstream"] = [asdict(r) for r in replicated]
        print(f"healthy in {self.figures['seconds_to_healthy']} s; JetStream: {replicated}")

    def check_terminal_client(self) -> None:
        """The image carries what the terminal client needs to speak each language: it signs
        in to the gateway beside it in Korean (--lang) and in Arabic (the locale), and says
        goodbye in the same language when its input ends."""
        assert self.deployment is not None
        runs = {
            "ko": (["--lang", "ko"], {}),
            "ar": ([], {"LANG": "ar_EG.UTF-8"}),
        }
        seen = {}
        for code, (flags, env) in runs.items():
            command = ["python", "-m", "clients.cli", "--url", "http://127.0.0.1:7100"]
            done = self.deployment.run_in(
                "gateway", [*command, "--name", f"terminal-{code}", *flags], env
            )
            with speaking(code):
                bye, signed_in = t("cli.bye"), t("cli.signin.signed_in", name=f"terminal-{code}")
            lines = done.stdout.splitlines()
            seen[code] = lines[-1] if lines else done.stderr[-300:]
            if done.returncode != 0 or signed_in not in lines or lines[-1] != bye:
                self.fail(
                    f"the terminal client in {code}: {done.returncode} {done.stdout}{done.stderr}"
                )
        self.figures["terminal_client"] = seen
        print(f"terminal client: {seen}", flush=True)

    async def check_strangers(self) -> None:
        """Every NATS node refuses a client without a user's password, and a service's
        user what is not its service's; the gateway's user reads the seats' updates (so the
        refusals are not everything failing)."""
        views = f"SUB {MATCH_SEATS_ALL}"
        gateway, matchmaking = self.password("gateway"), self.password("matchmaking")
        refused, forbidden = "Authorization Violation", "Permissions Violation"
        expected = [
            (Attempt("no credentials"), refused),
            (Attempt("a wrong password", "operator", self.password("operator") + "x"), refused),
            (Attempt("an unknown user", "nobody", gateway), refused),
            (
                Attempt("matchmaking's user reads the hands", "matchmaking", matchmaking, views),
                forbidden,
            ),
            (Attempt("the gateway's user reads the hands", "gateway", gateway, views), ALLOWED),
        ]
        seen: dict[str, dict[str, str]] = {}
        for node, port in NATS_PORT_OF.items():
            seen[node] = {}
            for attempt, wanted in expected:
                said = await answer("127.0.0.1", int(self.env[port]), attempt)
                seen[node][attempt.name] = said or "allowed"
                if wanted in said if wanted else not said:
                    continue
                got, want = said or "allowed", wanted or "allowed"
                self.fail(f"NATS {node}, {attempt.name}: {got}, not {want}")
        self.figures["nats_strangers"] = seen
        print(f"NATS strangers: {seen['nats']}", flush=True)

    async def check_monitoring(self, watcher: prometheus.Prometheus) -> None:
        try:
            checked = await asyncio.to_thread(prometheus.promtool_check, self.prometheus_image)
            self.figures["promtool"] = checked.strip()
        except subprocess.CalledProcessError as error:
            self.fail(f"promtool check rules: {error.stdout}{error.stderr}")
        wanted = prometheus.rule_names()
        loaded = await watcher.loaded_rules()
        self.figures["rules_loaded"] = len(loaded)
        if wanted - loaded:
            self.fail(f"rules not loaded by Prometheus: {sorted(wanted - loaded)}")
        deadline = time.monotonic() + TARGETS_TIMEOUT_S
        while True:
            targets = await watcher.targets()
            down = [f"{t.job} {t.instance} {t.health}" for t in targets if t.health != "up"]
            if targets and not down:
                break
            if time.monotonic() > deadline:
                self.fail(f"Prometheus targets not up: {down}")
                break
            await asyncio.sleep(2.0)
        self.figures["targets_up"] = sorted(f"{t.job}/{t.instance}" for t in targets)

    async def _nats_victim(self) -> str:
        """Return the NATS service leading the match-log stream: the hardest node to lose."""
        found = await jetstream.placement(self.nats_url("PF_NATS_PORT"))
        leader = next(r.leader for r in found if r.stream == LOG_STREAM)
        return next(service for service, name in NATS_NODES.items() if name == leader)

    async def load_with_faults(self, watcher: prometheus.Prometheus) -> None:
        assert self.deployment is not None
        deployment = self.deployment
        victim = await self._nats_victim()
        survivor = next(s for s in NATS_NODES if s != victim)
        self.figures["nats_killed"] = victim
        events: dict[str, float] = {}
        crossing_task = asyncio.create_task(
            crossing.play_across(self.url("PF_GATEWAY_PORT"), self.url("PF_GATEWAY_1_PORT"))
        )
        alert_task: asyncio.Task[float | None] | None = None

        async def fault() -> None:
            nonlocal alert_task
            events["killed"] = time.monotonic()
            await asyncio.to_thread(deployment.kill, victim)
            await asyncio.to_thread(deployment.kill, KILLED_ARBITRATION)
            print(f"  killed {victim} and {KILLED_ARBITRATION}", flush=True)
            alert_task = asyncio.create_task(self._wait_alert(watcher, events["killed"]))
            await asyncio.sleep(NATS_DOWN_S)
            await asyncio.to_thread(deployment.start, victim)
            events["nats_back"] = time.monotonic()

        result = await loadrun.run(
            self.url("PF_GATEWAY_PORT"),
            self.nats_url(NATS_PORT_OF[survivor]),
            WORK / "reports",
            self.players,
            self.seconds,
            KILL_AT_S,
            fault,
        )
        await self._judge_load(result)
        self.figures["results"] = await jetstream.outcomes(self.nats_url(NATS_PORT_OF[survivor]))
        try:
            seen = await crossing_task
            self.figures["second_gateway"] = asdict(seen)
            if not seen.same:
                self.fail(f"the two gateways saw the match differently: {seen}")
        except Exception as error:
            self.fail(f"second gateway: {type(error).__name__}: {error}")
        if alert_task is not None:
            fired_after = await alert_task
            self.figures["alert_fired_after_kill_s"] = fired_after
            if fired_after is None:
                self.fail(f"{ALERT} for {KILLED_ARBITRATION} never fired")
        await self._after_faults()

    async def _wait_alert(self, watcher: prometheus.Prometheus, killed: float) -> float | None:
        """Return seconds from the kill until ServiceDown fired for the killed arbitration."""
        deadline = killed + ALERT_TIMEOUT_S
        while time.monotonic() < deadline:
            for alert in await watcher.alerts():
                if (
                    alert.name == ALERT
                    and alert.state == "firing"
                    and alert.labels.get("instance", "").startswith(KILLED_ARBITRATION)
                ):
                    return round(time.monotonic() - killed, 1)
            await asyncio.sleep(2.0)
        return None

    async def _judge_load(self, result: loadrun.LoadRun) -> None:
        report = result.report
        timeline = result.timeline
        if not report:
            said = " | ".join(timeline.lines[-3:])
            self.fail(f"the load test wrote no report (exit {result.returncode}): {said}")
            self.figures["logs"] = self._logs()
            return
        self.figures["load"] = {
            "matches_played": report["matches_played"],
            "commands_accepted": report["commands"]["accepted"],
            "latency_ms": report["latency_ms"],
            "client_errors": report["client_errors"],
            "refused": report["commands"]["refused"],
            "checks": [
                {k: c[k] for k in ("name", "passed", "checked", "failed", "notes")}
                for c in report["checks"]
            ],
            "fault_at_s": timeline.fault_at_s,
            "outage_window_s": timeline.outage_window_s(),
        }
        for name in result.failed_checks():
            check = next(c for c in report["checks"] if c["name"] == name)
            self.fail(f"load check '{name}': {check['failures'][:5]}")
            self.figures["logs"] = self._logs()
        if timeline.fault_at_s is None:
            self.fail("the run ended before the fault was injected")
            return
        if timeline.errors_before_fault():
            self.fail(f"{timeline.errors_before_fault()} client errors before the fault")
        window = timeline.outage_window_s()
        if window is not None and window[1] > timeline.fault_at_s + OUTAGE_LIMIT_S:
            self.fail(
                f"client errors went on until {window[1]} s (fault at {timeline.fault_at_s} s)"
            )
        elif window is not None:
            # The load test's own check fails on any client error; a kill brings some.
            errors = next(c for c in report["checks"] if c["name"] == loadrun.CLIENT_ERRORS_CHECK)
            print(
                f"'{loadrun.CLIENT_ERRORS_CHECK}' is judged here: {errors['failed']} errors"
                f" ({'; '.join(errors['failures'][:3])}) from {window[0]} s to {window[1]} s,"
                f" the kills at {timeline.fault_at_s} s; they stopped within"
                f" {OUTAGE_LIMIT_S:g} s of them, as they must",
                flush=True,
            )

    async def _after_faults(self) -> None:
        """The killed NATS node is back in the cluster; the killed arbitration's restart."""
        assert self.deployment is not None
        try:
            replicated = await jetstream.wait_replicated(self.nats_url("PF_NATS_PORT"), 60.0)
            self.figures["jetstream_after"] = [asdict(r) for r in replicated]
        except TimeoutError:
            self.fail("JetStream replicas not all current a minute after the node came back")
        self.deployment.start(KILLED_ARBITRATION)
        try:
            waited = await asyncio.to_thread(
                self.deployment.wait_healthy, (KILLED_ARBITRATION,), 60.0
            )
            self.figures["arbitration_restart_s"] = round(waited, 1)
        except compose.Unhealthy:
            self.figures["arbitration_restart_log"] = self.deployment.logs(KILLED_ARBITRATION, 15)
            self.fail(f"{KILLED_ARBITRATION} did not come back healthy within 60 s")
