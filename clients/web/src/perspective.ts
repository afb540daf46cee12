// Which board the page shows: its seat's, or on a shared device the seat whose turn it is.
// A pending hand-over shows only a banner; gates and the end show the board with no hand.
import { Status, type MatchUpdate } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { Game, Gate } from "./gen/photofinish/game/v1/game_pb";
import { msg, type Words } from "./i18n/messages";
import { playerName } from "./names";

export type Screen =
  | { kind: "board"; update: MatchUpdate; viewer: number; showHand: boolean }
  | { kind: "handover"; seat: number; name: Words; update: MatchUpdate };

/** The most recent of the updates (a race notice is newer than its step). */
export function newest(latest: Map<number, MatchUpdate>): MatchUpdate {
  let best: MatchUpdate | undefined;
  for (const update of latest.values()) {
    if (!best || update.seq > best.seq || (update.seq === best.seq && update.race && !best.race)) best = update;
  }
  if (!best) throw new Error("no update yet");
  return best;
}

export function choose(latest: Map<number, MatchUpdate>, held: number[]): Screen | null {
  if (latest.size === 0) return null;
  if (held.length === 1) {
    const mine = latest.get(held[0]);
    return mine ? { kind: "board", update: mine, viewer: held[0], showHand: true } : null;
  }
  const last = newest(latest);
  const decision = last.decision;
  const live = last.status === Status.LIVE;
  if (live && decision?.gate === Gate.HANDOVER && decision.seats.length > 0) {
    const seat = decision.seats[0];
    return { kind: "handover", seat, name: playerName(last.players[seat], msg("names.seat_index", { seat })), update: last };
  }
  if (last.game === Game.SPIT) return { kind: "board", update: last, viewer: -1, showHand: true };
  if (live && decision?.gate === Gate.NONE && decision.seats.length === 1) {
    const seat = decision.seats[0];
    const mine = latest.get(seat);
    if (!mine || mine.seq !== last.seq) return null; // that seat's copy has not arrived yet
    return { kind: "board", update: mine, viewer: seat, showHand: true };
  }
  return { kind: "board", update: last, viewer: -1, showHand: false };
}
