"""The report as one self-contained HTML page: figures, checks and inline SVG plots."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

WIDTH, HEIGHT, PAD = 640, 220, 44
COLOURS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)
Series = tuple[str, Sequence[tuple[float, float]]]


def line_chart(
    title: str,
    unit: str,
    series: Sequence[Series],
    limit: float | None = None,
    marks: Sequence[float] = (),
) -> str:
    """Return an SVG chart of (x seconds, y) series; ``limit`` draws a dashed target line,
    ``marks`` a red line at each of those seconds (an injected fault)."""
    points = [(x, y) for _, values in series for x, y in values]
    if not points:
        return f"<h3>{html.escape(title)}</h3><p>no data</p>"
    x_max = max(x for x, _ in points) or 1.0
    y_max = max([y for _, y in points] + ([limit] if limit else [])) * 1.1 or 1.0

    def at(x: float, y: float) -> str:
        left = PAD + (WIDTH - 2 * PAD) * x / x_max
        return f"{left:.1f},{HEIGHT - PAD - (HEIGHT - 2 * PAD) * y / y_max:.1f}"

    parts = [_axes(x_max, y_max, unit)]
    if limit is not None:
        parts.append(
            f'<polyline points="{at(0, limit)} {at(x_max, limit)}" stroke="#999" '
            'stroke-dasharray="4 3" fill="none"/>'
        )
    for mark in marks:
        parts.append(
            f'<polyline points="{at(mark, 0)} {at(mark, y_max)}" stroke="#b42318" '
            'stroke-dasharray="2 2" fill="none"><title>fault</title></polyline>'
        )
    legend = []
    for index, (name, values) in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        path = " ".join(at(x, y) for x, y in values)
        parts.append(
            f'<polyline points="{path}" stroke="{colour}" stroke-width="1.5" fill="none"/>'
        )
        legend.append(f'<span style="color:{colour}">■ {html.escape(name)}</span>')
    return _figure(title, "".join(parts), " ".join(legend))


def bar_chart(title: str, bars: Sequence[tuple[str, float]]) -> str:
    """Return an SVG bar chart of labelled counts."""
    if not bars:
        return f"<h3>{html.escape(title)}</h3><p>no data</p>"
    top = max(value for _, value in bars) or 1.0
    width = (WIDTH - 2 * PAD) / len(bars)
    parts = [_axes(None, top, "commands")]
    for index, (label, value) in enumerate(bars):
        h = (HEIGHT - 2 * PAD) * value / top
        x = PAD + index * width
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{HEIGHT - PAD - h:.1f}" width="{width - 2:.1f}" '
            f'height="{h:.1f}" fill="{COLOURS[0]}"><title>≤ {label} ms: {value:g}</title></rect>'
            f'<text x="{x + width / 2:.1f}" y="{HEIGHT - PAD + 12}" font-size="8" '
            f'text-anchor="middle">{html.escape(label)}</text>'
        )
    return _figure(title, "".join(parts), "latency bucket upper bound, ms")


def _axes(x_max: float | None, y_max: float, unit: str) -> str:
    bottom, right = HEIGHT - PAD, WIDTH - PAD
    text = [
        f'<line x1="{PAD}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#333"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{bottom}" stroke="#333"/>',
        f'<text x="4" y="{PAD - 8}" font-size="10">{html.escape(unit)}</text>',
    ]
    for step in range(5):
        y = y_max * step / 4
        pixel = bottom - (HEIGHT - 2 * PAD) * step / 4
        text.append(
            f'<text x="{PAD - 4}" y="{pixel + 3:.1f}" font-size="9" '
            f'text-anchor="end">{y:.3g}</text>'
        )
        if x_max is not None:
            x = x_max * step / 4
            px = PAD + (WIDTH - 2 * PAD) * step / 4
            text.append(
                f'<text x="{px:.1f}" y="{bottom + 14}" font-size="9" '
                f'text-anchor="middle">{x:.0f} s</text>'
            )
    return "".join(text)


def _figure(title: str, body: str, legend: str) -> str:
    return (
        f"<figure><h3>{html.escape(title)}</h3>"
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">{body}</svg><figcaption>{legend}</figcaption></figure>'
    )


def _rows(report: dict[str, Any], column: str) -> list[tuple[float, float]]:
    return [(row["t"], row[column]) for row in report["per_second"] if row[column] is not None]


def _quantile_text(figures: dict[str, Any]) -> str:
    return f"{figures['p50']} / {figures['p99']} (n={figures['count']})"


def render(report: dict[str, Any]) -> str:
    """Return the whole page."""
    latency, commands = report["latency_ms"], report["commands"]
    figures = {
        "players": report["players_signed_in"],
        "matches played": report["matches_played"],
        "peak matches in play (clients)": report["peak_matches_in_play"],
        "peak matches held by the arbitration": report["peak_live_matches"],
        "results of the tournaments' games": json.dumps(report.get("results", {})),
        "submit → both views p50 / p99 / max (ms)": (
            f"{latency['p50']} / {latency['p99']} / {latency['max']}"
        ),
        "commands accepted (mean / peak per s)": (
            f"{commands['accepted']} ({commands['per_s_mean']} / {commands['per_s_peak']})"
        ),
        "pace reached (commands/s per player in a game)": commands["pace_per_player"],
        "timer lateness p50 / p99 (ms, timers fired)": _quantile_text(report["timer_lateness_ms"]),
        "log store per awaited entry p50 / p99 (ms, entries)": _quantile_text(
            report["log_store_ms"]
        ),
        "memory per live match (KB)": ", ".join(
            f"{name} {m['kb_per_live_match']}" for name, m in report["memory"].items()
        )
        or "not sampled (--url)",
        "faults": "; ".join(f["what"] for f in report["faults"]) or "none",
        "client errors": json.dumps(report["client_errors"]),
        "refused (game refusals and others)": json.dumps(commands["refused"]),
    }
    table = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
        for k, v in figures.items()
    )
    check_rows = "".join(
        f'<tr class="{"ok" if c["passed"] else "bad"}"><td>{"PASS" if c["passed"] else "FAIL"}</td>'
        f"<td>{html.escape(c['name'])}</td><td>{c['checked']}</td><td>{c['failed']}</td>"
        f"<td>{'<br>'.join(html.escape(t) for t in c['failures'] + c['notes'])}</td></tr>"
        for c in report["checks"]
    )
    processes = report["processes"]
    cpu = [(name, [(t, c) for t, c, _ in rows]) for name, rows in processes.items()]
    rss = [(name, [(t, r) for t, _, r in rows]) for name, rows in processes.items()]
    live = [(t, v) for t, v in report["live_matches"] if v is not None]
    in_play = [(t, n) for t, n in report["in_play"]]
    faults = [fault["at_s"] for fault in report["faults"]]
    plots = [
        line_chart(
            "Submit → both views, per second",
            "ms",
            [("p50", _rows(report, "p50_ms")), ("p99", _rows(report, "p99_ms"))],
            limit=latency["target_p99"],
            marks=faults,
        ),
        bar_chart(
            "Latency histogram (submit → both views)",
            [
                ("inf" if b["le_ms"] is None else f"{b['le_ms']:g}", b["count"])
                for b in report["latency_histogram"]
            ],
        ),
        line_chart(
            "Commands accepted per second",
            "commands/s",
            [("accepted", _rows(report, "commands"))],
            marks=faults,
        ),
        line_chart(
            "Matches",
            "matches",
            [("in play (clients)", in_play), ("held by the arbitration", live)],
        ),
        line_chart("CPU per process", "% of one core", cpu),
        line_chart("Resident memory per process", "MB", rss),
    ]
    settings = html.escape(json.dumps(report["settings"]))
    verdict = "every check passed" if report["all_checks_passed"] else "SOME CHECKS FAILED"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Photo Finish load test {html.escape(report["started_at"])}</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1em; }}
th, td {{ border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }}
tr.ok td:first-child {{ color: #1a7f37; font-weight: bold; }}
tr.bad td:first-child {{ color: #b42318; font-weight: bold; }}
figure {{ display: inline-block; margin: 0 1em 1em 0; }}
h3 {{ margin: 0.2em 0; font-size: 14px; }}
figcaption {{ font-size: 12px; }}
</style></head><body>
<h1>Photo Finish load test — {verdict}</h1>
<p>{html.escape(report["started_at"])} · settings <code>{settings}</code></p>
<table>{table}</table>
<h2>Checks</h2>
<table><tr><th></th><th>check</th><th>checked</th><th>failed</th>
<th>first failures / notes</th></tr>{check_rows}</table>
<h2>Plots</h2>
{"".join(plots)}
</body></html>
"""
