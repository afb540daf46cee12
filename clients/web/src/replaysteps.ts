// A replay step's facts as a person reads them: what the log entry says happened, when by
// the server's stamps (ms since the match opened), a race with both stamps, a decision's time.
import { endName } from "./bidboard";
import { h } from "./dom";
import { EntryKind, type LogEntry, type RaceRecord } from "./gen/photofinish/arbitration/v1/log_pb";
import type { DecisionTime as StepTime } from "./gen/photofinish/arbitration/v1/replay_pb";
import { Termination, type Command } from "./gen/photofinish/game/v1/game_pb";
import { decimal } from "./i18n/figures";
import { msg, type Key, type Message, type Words } from "./i18n/messages";
import { faultWords, voidWords } from "./voids";

/** Microseconds since the match opened, as milliseconds to the microsecond. */
export function stampMs(us: bigint): Message {
  return msg("time.ms", { ms: () => decimal(Number(us) / 1000, 3) });
}

function seconds(ms: number): Message {
  return msg("time.s", { s: () => decimal(ms / 1000, ms < 10_000 ? 3 : 1) });
}

const TERMINATIONS: Record<number, Key> = {
  [Termination.CHIPS]: "replay.how.chips",
  [Termination.CARDS]: "end.how.cards",
  [Termination.TIME]: "end.how.time",
  [Termination.RESIGN]: "end.how.resign",
  [Termination.ABANDONED]: "replay.how.abandoned",
};

const SPIT_COMMANDS: Record<string, Key> = { ready: "replay.cmd.ready", pause: "replay.cmd.pause", resume: "replay.cmd.resume", resign: "replay.cmd.resign" };
const BID_COMMANDS: Record<string, Key> = { ready: "replay.cmd.ready", draw: "replay.cmd.draw", passBid: "replay.cmd.pass_bid", accept: "replay.cmd.accept", resign: "replay.cmd.resign" };
const OTHER_COMMANDS: Record<string, Key> = { reveal: "replay.cmd.reveal", nudge: "replay.cmd.nudge", claim: "replay.cmd.claim" };

/** A command in words, with the card a Spit play landed when the log names it. */
export function commandText(command: Command | undefined, landed = ""): Words {
  const kind = command?.kind;
  if (!kind) return msg("replay.cmd.none");
  if (kind.case === "spit") {
    const c = kind.value.kind;
    if (c.case === "play") return msg("replay.cmd.play", { card: landed || msg("replay.cmd.stock_pile", { pile: c.value.stock + 1 }), pile: c.value.pile + 1 });
    if (c.case === "move") return msg("replay.cmd.move", { from: c.value.src + 1, to: c.value.dst + 1 });
    if (c.case === "spit") return msg("replay.cmd.spit");
    const key = SPIT_COMMANDS[c.case ?? "ready"];
    return key ? msg(key) : "?";
  }
  if (kind.case === "bid") {
    const c = kind.value.kind;
    if (c.case === "play") return c.value.end ? msg("replay.cmd.bid_play", { tile: c.value.tile?.text ?? "?", end: endName(c.value.end) }) : msg("replay.cmd.bid_open", { tile: c.value.tile?.text ?? "?" });
    if (c.case === "bid") return msg("replay.cmd.bid", { amount: c.value.amount });
    const key = BID_COMMANDS[c.case ?? "ready"];
    return key ? msg(key) : "?";
  }
  const key = OTHER_COMMANDS[kind.case ?? ""];
  return key ? msg(key) : "?";
}

/** The step's headline: who did what, when. */
export function stepTitle(entry: LogEntry, names: Words[]): Message {
  const who = names[entry.seat] ?? msg("replay.the_server");
  const at = stampMs(entry.arrivalUs);
  switch (entry.kind) {
    case EntryKind.OPENED:
      return msg("replay.step.opened");
    case EntryKind.ACCEPTED:
      return msg("replay.step.accepted", { who, what: commandText(entry.command, entry.landing?.label), at });
    case EntryKind.REFUSED:
      return msg("replay.step.refused", { who, what: commandText(entry.command, entry.race?.refusedCard), at, reason: entry.reason });
    case EntryKind.FLAG:
      return msg("replay.step.flag", { who: names[entry.flag?.seat ?? -1] ?? "?", at });
    case EntryKind.NUDGE:
      return msg("replay.step.nudge", { at });
    case EntryKind.REVEAL:
      return msg("replay.step.reveal", { who, at });
    case EntryKind.FINISHED: {
      const how = TERMINATIONS[entry.outcome?.termination ?? 0];
      return msg("replay.step.finished", { at, winner: names[entry.outcome?.winner ?? -1] ?? "?", how: how ? msg(how) : "" });
    }
    case EntryKind.VOIDED:
      return msg("replay.step.voided", { at, reason: voidWords(entry.voidReason) });
    case EntryKind.FAULT:
      return msg("replay.step.fault", { kind: faultWords(entry.fault?.kind ?? "") });
    case EntryKind.TAKEN_OVER:
      return msg("replay.step.taken_over", { at });
    case EntryKind.AWAY:
      return entry.away ? msg("replay.step.away", { who, seen: stampMs(entry.lastSeenUs) }) : msg("replay.step.back", { who, at });
    default:
      return msg("replay.step.entry", { index: String(entry.index) });
  }
}

/** A Spit race drawn as it happened: both cards, both arrival stamps, the gap, which landed. */
export function racePanel(race: RaceRecord, names: Words[]): HTMLElement {
  const row = (what: Message, seat: number, card: string, us: bigint, cls: string) =>
    h(`div.race-row.${cls}`, h("span.race-what", what), h("span.race-card", { "data-red": String(/[♥♦]/.test(card)) }, card), h("span.race-who", names[seat] ?? msg("names.seat", { number: seat + 1 })), h("span.race-stamp", stampMs(us)));
  return h(
    "div.replay-race",
    { role: "group", "aria-label": msg("replay.race_label") },
    h("h4", msg("replay.race_title", { pile: race.pile + 1 })),
    row(msg("replay.race_landed"), race.landedSeat, race.landedCard, race.landedArrivalUs, "landed"),
    row(msg("replay.race_refused"), race.refusedSeat, race.refusedCard, race.refusedArrivalUs, "refused"),
    h("p.race-gap", msg("replay.race_gap", { gap: () => decimal(Number(race.gapUs) / 1000, 3) })),
  );
}

/** A timed decision (Bid): how long it took against the grace and the bank. */
export function decisionPanel(time: StepTime, names: Words[]): HTMLElement {
  const tookMs = Number(time.tookUs) / 1000;
  const graceMs = Number(time.graceMs);
  const fromBank = Number(time.bankBeforeMs - time.bankAfterMs);
  const graceUsed = Math.min(100, (Math.min(tookMs, graceMs) / graceMs) * 100);
  return h(
    "div.replay-time",
    h("h4", msg("replay.time.took", { name: names[time.seat] ?? "?", took: seconds(tookMs) })),
    h("div.time-bar", { "aria-hidden": "true" }, h("span.time-grace", { style: `width:${graceUsed.toFixed(1)}%` })),
    h(
      "p",
      time.continued ? msg("replay.time.continued") : msg("replay.time.grace", { grace: seconds(graceMs) }),
      " ",
      fromBank > 0 ? msg("replay.time.from_bank", { spent: seconds(fromBank), left: seconds(Number(time.bankAfterMs)) }) : msg("replay.time.within", { left: seconds(Number(time.bankAfterMs)) }),
    ),
  );
}

/** The other facts of an entry: a flag's deadline, a fault's span, the deadline in force. */
export function entryDetails(entry: LogEntry): Message[] {
  const lines: Message[] = [];
  if (entry.flag) lines.push(msg("replay.detail.flag", { deadline: stampMs(entry.flag.deadlineUs), judged: stampMs(entry.flag.firedUs), late: String(entry.flag.lateUs) }));
  if (entry.fault) lines.push(msg("replay.detail.fault", { kind: faultWords(entry.fault.kind), from: stampMs(entry.fault.startNs / 1000n), to: stampMs(entry.fault.endNs / 1000n) }));
  if (entry.deadlineUs !== undefined && entry.kind !== EntryKind.FLAG) lines.push(msg("replay.detail.deadline", { deadline: stampMs(entry.deadlineUs) }));
  if (entry.kind === EntryKind.VOIDED) lines.push(msg("replay.detail.void"));
  return lines;
}
