// A replay step's facts as a person reads them: what the log entry says happened, when by
// the server's stamps (ms since the match opened), a race with both stamps, a decision's time.
import { h } from "./dom";
import { EntryKind, type LogEntry, type RaceRecord } from "./gen/photofinish/arbitration/v1/log_pb";
import type { DecisionTime as StepTime } from "./gen/photofinish/arbitration/v1/replay_pb";
import { Termination, type Command } from "./gen/photofinish/game/v1/game_pb";

/** Microseconds since the match opened, as milliseconds to the microsecond. */
export function stampMs(us: bigint): string {
  return `${(Number(us) / 1000).toFixed(3)} ms`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1)} s`;
}

const TERMINATIONS: Record<number, string> = {
  [Termination.CHIPS]: "chips ran out",
  [Termination.CARDS]: "no cards left",
  [Termination.TIME]: "on time",
  [Termination.RESIGN]: "by resignation",
  [Termination.ABANDONED]: "the opponent went away",
};

/** A command in words, with the card a Spit play landed when the log names it. */
export function commandText(command: Command | undefined, landed = ""): string {
  const kind = command?.kind;
  if (!kind) return "(no command)";
  if (kind.case === "spit") {
    const c = kind.value.kind;
    if (c.case === "play") return `played ${landed || "stock pile " + (c.value.stock + 1)} onto centre pile ${c.value.pile + 1}`;
    if (c.case === "move") return `moved stock pile ${c.value.src + 1} into space ${c.value.dst + 1}`;
    if (c.case === "spit") return "spat";
    return { ready: "pressed Ready", pause: "paused", resume: "resumed", resign: "resigned" }[c.case ?? "ready"] ?? "?";
  }
  if (kind.case === "bid") {
    const c = kind.value.kind;
    if (c.case === "play") return c.value.end ? `played ${c.value.tile?.text ?? "?"} on ${c.value.end.text}` : `opened with ${c.value.tile?.text ?? "?"}`;
    if (c.case === "bid") return `bid ${c.value.amount}`;
    return { ready: "pressed Ready", draw: "drew", passBid: "passed the auction", accept: "accepted the bid", resign: "resigned" }[c.case ?? "ready"] ?? "?";
  }
  const others: Record<string, string> = { reveal: "revealed their hand", nudge: "nudged", claim: "claimed the match (the opponent was away)" };
  return others[kind.case ?? ""] ?? "?";
}

/** The step's headline: who did what, when. */
export function stepTitle(entry: LogEntry, names: string[]): string {
  const who = names[entry.seat] ?? "The server";
  const at = stampMs(entry.arrivalUs);
  switch (entry.kind) {
    case EntryKind.OPENED:
      return "The match opened: dealt from its seed";
    case EntryKind.ACCEPTED:
      return `${who} ${commandText(entry.command, entry.landing?.label)} at ${at}`;
    case EntryKind.REFUSED:
      return `${who} ${commandText(entry.command, entry.race?.refusedCard)} at ${at} — refused: ${entry.reason}`;
    case EntryKind.FLAG:
      return `${names[entry.flag?.seat ?? -1] ?? "?"} ran out of time at ${at}`;
    case EntryKind.NUDGE:
      return `At ${at} the server moved play on (a due spit, or a gate nobody lifted)`;
    case EntryKind.REVEAL:
      return `${who} revealed their hand at ${at}`;
    case EntryKind.FINISHED: {
      const winner = names[entry.outcome?.winner ?? -1] ?? "?";
      return `The match ended at ${at}: ${winner} won ${TERMINATIONS[entry.outcome?.termination ?? 0] ?? ""}`;
    }
    case EntryKind.VOIDED:
      return `The match was voided at ${at}: ${entry.voidReason}`;
    case EntryKind.FAULT:
      return `A timing fault touched the match: ${entry.fault?.kind ?? "?"}`;
    case EntryKind.TAKEN_OVER:
      return `At ${at} another arbitration instance took the match over`;
    case EntryKind.AWAY:
      return entry.away ? `${who} went away (last heard from at ${stampMs(entry.lastSeenUs)})` : `${who} came back at ${at}`;
    default:
      return `Entry ${entry.index}`;
  }
}

/** A Spit race drawn as it happened: both cards, both arrival stamps, the gap, which landed. */
export function racePanel(race: RaceRecord, names: string[]): HTMLElement {
  const row = (what: string, seat: number, card: string, us: bigint, cls: string) =>
    h(`div.race-row.${cls}`, h("span.race-what", what), h("span.race-card", { "data-red": String(/[♥♦]/.test(card)) }, card), h("span.race-who", names[seat] ?? `Seat ${seat + 1}`), h("span.race-stamp", stampMs(us)));
  return h(
    "div.replay-race",
    { role: "group", "aria-label": "race" },
    h("h4", `Race for centre pile ${race.pile + 1}`),
    row("landed", race.landedSeat, race.landedCard, race.landedArrivalUs, "landed"),
    row("refused", race.refusedSeat, race.refusedCard, race.refusedArrivalUs, "refused"),
    h("p.race-gap", `Gap: ${(Number(race.gapUs) / 1000).toFixed(3)} ms — the earlier arrival at the server landed.`),
  );
}

/** A timed decision (Bid): how long it took against the grace and the bank. */
export function decisionPanel(time: StepTime, names: string[]): HTMLElement {
  const tookMs = Number(time.tookUs) / 1000;
  const graceMs = Number(time.graceMs);
  const fromBank = Number(time.bankBeforeMs - time.bankAfterMs);
  const graceUsed = Math.min(100, (Math.min(tookMs, graceMs) / graceMs) * 100);
  return h(
    "div.replay-time",
    h("h4", `${names[time.seat] ?? "?"}'s decision took ${seconds(tookMs)}`),
    h("div.time-bar", { "aria-hidden": "true" }, h("span.time-grace", { style: `width:${graceUsed.toFixed(1)}%` })),
    h(
      "p",
      time.continued ? `The turn went on after a draw: no fresh grace. ` : `Grace ${seconds(graceMs)}: `,
      fromBank > 0 ? `${seconds(fromBank)} came off the bank, ${seconds(Number(time.bankAfterMs))} left.` : `within the grace; the bank stays at ${seconds(Number(time.bankAfterMs))}.`,
    ),
  );
}

/** The other facts of an entry: a flag's deadline, a fault's span, the deadline in force. */
export function entryDetails(entry: LogEntry): string[] {
  const lines: string[] = [];
  if (entry.flag) lines.push(`Deadline ${stampMs(entry.flag.deadlineUs)}, judged at ${stampMs(entry.flag.firedUs)} (${entry.flag.lateUs} µs late).`);
  if (entry.fault) lines.push(`Fault ${entry.fault.kind || "?"} from ${stampMs(entry.fault.startNs / 1000n)} to ${stampMs(entry.fault.endNs / 1000n)}.`);
  if (entry.deadlineUs !== undefined && entry.kind !== EntryKind.FLAG) lines.push(`Deadline in force: ${stampMs(entry.deadlineUs)}.`);
  if (entry.kind === EntryKind.VOIDED) lines.push("No result: time could not be trusted, so nobody won and no rating moved.");
  return lines;
}
