"""The ops page: one HTML document, no external assets, polling `/ops/figures`."""

from __future__ import annotations

OPS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Photo Finish · ops</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; }
  body { color: #1d232a; background: #f6f7f9; }
  h1 { font-size: 1.3rem; margin: 0 0 .2rem; }
  #status { color: #5b6470; margin-bottom: 1rem; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .6rem; }
  .card { background: #fff; border-radius: 6px; padding: .6rem .8rem; box-shadow: 0 1px 2px #0002; }
  .card .label { color: #5b6470; font-size: .8rem; }
  .card .value { font-size: 1.5rem; font-variant-numeric: tabular-nums; }
  section { margin-top: 1.2rem; }
  h2 { font-size: 1rem; margin: 0 0 .4rem; }
  table { border-collapse: collapse; background: #fff; box-shadow: 0 1px 2px #0002; }
  td, th { padding: .3rem .8rem; text-align: left; border-bottom: 1px solid #e5e7eb; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  .up { color: #137333; font-weight: 600; }
  .down { color: #b3261e; font-weight: 600; }
</style>
</head>
<body>
<h1>Photo Finish · ops</h1>
<div id="status">loading…</div>
<div class="grid" id="cards"></div>
<section><h2>Services</h2><table id="services"></table></section>
<section><h2>Timing faults (since start)</h2><table id="faults"></table></section>
<section><h2>Voids (since start)</h2><table id="voids"></table></section>
<section><h2>Processes started again (make run)</h2><table id="restarts"></table></section>
<section><h2>Queues</h2><table id="queues"></table></section>
<script>
"use strict";
const fmt = (v, unit) => v === null || v === undefined ? "–" : `${+v.toFixed(3)}${unit || ""}`;
function card(label, value) {
  const div = document.createElement("div");
  div.className = "card";
  const l = document.createElement("div"); l.className = "label"; l.textContent = label;
  const v = document.createElement("div"); v.className = "value"; v.textContent = value;
  div.append(l, v);
  return div;
}
function table(id, head, rows) {
  const t = document.getElementById(id);
  t.replaceChildren();
  const tr = t.insertRow();
  for (const h of head) {
    const th = document.createElement("th");
    th.textContent = h;
    tr.append(th);
  }
  if (rows.length === 0) {
    const c = t.insertRow().insertCell();
    c.colSpan = head.length;
    c.textContent = "none";
  }
  for (const row of rows) {
    const r = t.insertRow();
    for (const cell of row) {
      const c = r.insertCell();
      if (cell instanceof Node) { c.append(cell); } else { c.textContent = cell; }
      if (typeof cell === "number" || /^[0-9.–]+( ms)?$/.test(cell)) c.className = "num";
    }
  }
}
function state(up) {
  const s = document.createElement("span");
  s.className = up ? "up" : "down";
  s.textContent = up ? "up" : "DOWN";
  return s;
}
function render(f) {
  const window = f.window_s === null
    ? "since each process started" : `over the last ${Math.round(f.window_s)} s`;
  const at = new Date().toLocaleTimeString();
  document.getElementById("status").textContent =
    `updated ${at} · rates and percentiles ${window}`;
  document.getElementById("cards").replaceChildren(
    card("live matches", fmt(f.live_matches)),
    card("commands/s", fmt(f.commands_per_s)),
    card("command latency p50", fmt(f.command_latency_ms.p50, " ms")),
    card("command latency p99", fmt(f.command_latency_ms.p99, " ms")),
    card("timer lateness p99", fmt(f.timer_lateness_p99_ms, " ms")),
    card("forwarding delay p99", fmt(f.forwarding_delay_p99_ms, " ms")),
    card("open challenges", fmt(f.open_challenges)),
    card("ratings consumer lag", fmt(f.ratings_pending)),
  );
  table("services", ["service", "state", "event-loop lag p99"],
    f.services.map(s => [s.name, state(s.up), fmt(s.loop_lag_p99_ms, " ms")]));
  table("faults", ["kind", "count"], Object.entries(f.faults).map(([k, v]) => [k, v]));
  table("voids", ["reason", "count"], Object.entries(f.voids).map(([k, v]) => [k, v]));
  table("restarts", ["process", "restarts"], Object.entries(f.restarts ?? {}));
  table("queues", ["game", "rated", "waiting"], f.queues.map(q => [q.game, q.rated, q.length]));
}
async function poll() {
  try {
    const response = await fetch("ops/figures", {cache: "no-store"});
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    render(await response.json());
  } catch (error) {
    document.getElementById("status").textContent = `the gateway did not answer: ${error.message}`;
  }
  setTimeout(poll, 2000);
}
poll();
</script>
</body>
</html>
"""
