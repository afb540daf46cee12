"""The printout: latency percentiles, refusals, CPU per process, and a verdict."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from bench.stack import histograms
from bench.stack.procstat import Usage, percentile
from bench.stack.settings import (
    CORES,
    MACHINE_SATURATED,
    MISSING_AFTER_S,
    OUTSIDE_NOISE,
    SATURATED,
    WORKER_LAG_MS,
)
from bench.stack.worker import assign
from bench.stack.yardsticks import StackCost
from services.gateway.ops.samples import total


def report(args: argparse.Namespace, results: list[dict[str, Any]], usage: Usage) -> StackCost:
    """Print the run's figures; return what a command cost the stack."""
    both = sorted(v * 1000 for r in results for v in r["both_s"])
    reply = sorted(v * 1000 for r in results for v in r["reply_s"])
    accepted: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    for r in results:
        accepted.update(r["accepted"])
        refused.update(r["refused"])
        reasons.update(r["reasons"])
        ended.update(r["seats_ended"])
    seconds = max(r["elapsed_s"] for r in results)
    per_game = Counter(
        game for share in assign(args.matches, args.game, args.workers) for _, game in share
    )
    late = sorted(v for r in results for v in r["late_s"])
    worker_lags = [sorted(r["lag_s"]) for r in results]
    lag_p99_ms = dict(usage.lag_p99_ms)
    for index, lags in enumerate(worker_lags):
        lag_p99_ms[f"bench worker {index + 1}"] = 1000 * percentile(lags, 0.99)

    def ms(values: list[float]) -> str:
        quantiles = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
        text = "  ".join(f"{label} {percentile(values, q):6.1f}" for label, q in quantiles)
        return f"{text}  max {values[-1] if values else float('nan'):6.1f}"

    games = ", ".join(f"{n} {g}" for g, n in sorted(per_game.items()))
    print(
        f"whole stack: {args.matches} casual matches ({games}), {2 * args.matches} players on "
        f"{args.workers} load worker process(es), HARD bots; {seconds:.1f} s measured after a "
        f"{args.warmup:g} s warm-up"
    )
    print(
        f"NOTE: the load generator runs on the same {CORES}-core machine as the stack "
        "(loopback) and competes with it for CPU"
    )
    total = sum(accepted.values())
    print(f"commands accepted {total} ({total / seconds:.0f}/s), refused {sum(refused.values())}")
    for game, matches in sorted(per_game.items()):
        sent = accepted[game] + refused[game]
        scale = args.spit_scale if game == "spit" else args.bid_scale
        print(
            f"  {game:4} pace {sent / seconds / (2 * matches):.2f} commands/s per player "
            f"(think scale {scale:g}; target ~2): accepted {accepted[game]}, "
            f"refused {refused[game]}"
        )
    print(f"submit → both views (ms, n={len(both)}): {ms(both)}")
    print(f"submit → reply      (ms, n={len(reply)}): {ms(reply)}")
    if late:
        print(
            f"  {len(late)} accepted commands still without both views at the stop "
            f"(> {MISSING_AFTER_S:g} s; oldest {late[-1]:.1f} s): not in the percentiles"
        )
    if reasons:
        print("refused: " + ", ".join(f"{why} {n}" for why, n in reasons.most_common()))
    if ended:
        print("seats ended before the stop: " + ", ".join(f"{k} {n}" for k, n in ended.items()))
    recancelled = sum(r["recancelled"] for r in results)
    if recancelled:
        print(
            f"stopping: {recancelled} client tasks swallowed their first cancellation "
            "(Python 3.11 asyncio.wait_for in the bots' watcher) and were cancelled again"
        )
    wall = usage.wall_s
    sent = max(1, total + sum(refused.values()))  # every command costs the stack something
    print(
        f"\n{'process':18} {'cpu s':>7} {'% core':>7} {'ms/cmd':>7} {'ms/acc':>7} {'rss MB':>7} "
        f"{'loop lag p99 ms':>16} {'wakes/acc':>9} {'÷ gateway':>9} {'÷ load':>7}"
    )
    rows = [*usage.cpu.items()]
    stack_cpu = sum(v for k, v in rows if not k.startswith("bench"))
    load_cpu = sum(v for k, v in rows if k.startswith("bench"))
    stack_wakes = sum(v for k, v in usage.wakes.items() if not k.startswith("bench"))
    wakes = {**usage.wakes, "stack total": stack_wakes}
    gateway_cpu = usage.cpu.get("gateway", 0.0)
    for name, cpu in [*rows, ("stack total", stack_cpu), ("load total", load_cpu)]:
        lag = lag_p99_ms.get(name)
        lag_text = "" if lag is None else f"{'≤ ' if name in usage.lag_p99_ms else ''}{lag:.1f}"
        rss = f"{usage.rss[name]:7.0f}" if name in usage.rss else ""
        print(
            f"{name:18} {cpu:7.2f} {100 * cpu / wall:7.0f} {1000 * cpu / sent:7.2f} "
            f"{1000 * cpu / max(1, total):7.2f} "
            f"{rss:>7} {lag_text:>16} "
            + (f"{wakes[name] / max(1, total):9.2f}" if name in wakes else f"{'':9}")
            + (
                f" {cpu / gateway_cpu:9.3f} {cpu / load_cpu:7.3f}"
                if gateway_cpu and load_cpu and not name.startswith(("bench", "load"))
                else ""
            )
        )
    outside = max(0.0, usage.busy * CORES - (stack_cpu + load_cpu) / wall)
    print(
        f"machine busy (/proc/stat, every process): {100 * usage.busy:.0f}% of {CORES} cores; "
        f"outside this run: {100 * outside:.0f}% of a core"
    )
    print(
        "(ms/cmd: CPU ms per command sent, accepted or refused; ms/acc: per accepted command; "
        "loop lag: the services' own "
        "pf_event_loop_lag_seconds histogram bucket, the workers' 50 ms probe; wakes/acc: "
        "context switches of every thread per accepted command, from /proc; ÷ gateway, "
        "÷ load: the process's CPU against the gateway's, and the load generator's, in this "
        "run: the machine's noise moves them alike, so an A/B reads best in these columns, "
        "against a reference whose work the change leaves alone: the load generator's "
        "always, the gateway's only when fewer or other messages do not reach it)"
    )
    arbitration_figures(usage, sent)
    verdict(usage, lag_p99_ms, outside)
    return StackCost(1000 * stack_cpu / max(1, total), 1000 * gateway_cpu / sent)


def arbitration_figures(usage: Usage, sent: int) -> None:
    """Print timer lateness and the log store per awaited entry against their targets."""
    rows = (
        (histograms.TIMER_LATENESS, "timer lateness", 2.0),
        (histograms.LOG_STORE, "log store per awaited entry", 0.5),
    )
    gained = usage.arbitration
    faults = total(gained, histograms.TIMING_FAULTS)
    voids = total(gained, histograms.VOIDS)
    print(f"timing faults in the window: {faults:g}, voids: {voids:g} (a clean run has none)")
    for name, label, target_ms in rows:
        p50, p99 = (1000 * histograms.quantile(gained, name, q) for q in (0.5, 0.99))
        print(
            f"{label:25} n={histograms.count(gained, name):6}  p50 {p50:6.3f} ms  p99 {p99:6.3f} ms"
            f"  (target p99 ≤ {target_ms:g} ms; interpolated in the histogram's buckets)"
        )


def verdict(usage: Usage, lag_p99_ms: dict[str, float], outside: float) -> None:
    """Say in words who was saturated, so nobody has to read it off the table."""
    hot = sorted(((cpu / usage.wall_s, name) for name, cpu in usage.cpu.items()), reverse=True)
    words = [f"busiest process: {hot[0][1]} at {100 * hot[0][0]:.0f}% of one core"]
    saturated = [name for share, name in hot if share >= SATURATED]
    if saturated:
        words.append(f"saturated (≥ {100 * SATURATED:.0f}% of a core): {', '.join(saturated)}")
    if usage.busy >= MACHINE_SATURATED:
        words.append(
            f"the machine was nearly saturated ({100 * usage.busy:.0f}% of {CORES} cores busy): "
            "every process waits its turn for a CPU, and that wait is part of the latency"
        )
    if outside >= OUTSIDE_NOISE:
        words.append(
            f"processes outside this run took {100 * outside:.0f}% of a core: "
            "these numbers are disturbed, run again on a quiet machine"
        )
    workers = [name for name in usage.cpu if name.startswith("bench worker")]
    behind = [name for name in workers if lag_p99_ms.get(name, 0.0) > WORKER_LAG_MS]
    if any(name in saturated for name in workers):
        words.append(
            "the load generator was saturated: its own delay is in the latencies — "
            "use more --workers or fewer --matches"
        )
    elif behind:
        words.append(
            f"the load generator's event loops ran late (lag p99 > {WORKER_LAG_MS:g} ms: "
            f"{', '.join(behind)}) without being busy themselves: they waited for a CPU; "
            "the measured latencies include that wait"
        )
    if not saturated and usage.busy < MACHINE_SATURATED and not behind:
        words.append("nobody saturated: the stack had headroom at this load")
    print("verdict: " + ";\n  ".join(words))
