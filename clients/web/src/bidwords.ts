// Bid in words: why a round paid what it paid, and why a bid cannot be made.
import { SettlementKind, type BidPlayed, type BidSettlement, type BidView } from "./gen/photofinish/game/v1/bid_pb";
import { Gate } from "./gen/photofinish/game/v1/game_pb";
import { msg, type Message, type Words } from "./i18n/messages";

export const BID_STEP = 5;

/** The settlement a view shows: at the Continue gate after it, or at a match's end. */
export function settlementShown(view: BidView): BidSettlement | null {
  const s = view.lastSettlement;
  if (!s) return null;
  if (view.gate === Gate.CONTINUE && s.roundNo === view.roundNo - 1) return s;
  if (view.winner >= 0 && s.roundNo === view.roundNo) return s;
  return null;
}

/**
 * Why a round paid what it paid (rules §4), as [headline, reason]: going out pays no bonus;
 * a block pays the lighter hand the other's total rounded to the nearest 5, capped by the
 * payer's balance. `last` is the play that ended the round, when this page saw it.
 */
export function settlementWords(s: BidSettlement, names: Words[], last: BidPlayed | null): [Message, Message] {
  const name = (seat: number) => names[seat] ?? msg("names.seat_index", { seat });
  const round = s.roundNo;
  if (s.kind === SettlementKind.WENT_OUT) {
    const play = last?.seat === s.seat ? last : null;
    const out = { round, name: name(s.seat) };
    const headline = play?.tile ? msg("bid.settle.went_out_with", { ...out, tile: play.tile.text }) : msg("bid.settle.went_out", out);
    const why = !play ? "bid.settle.went_out_why" : play.points ? "bid.settle.went_out_why_scored" : "bid.settle.went_out_why_no_score";
    return [headline, msg(why, { name: name(s.seat), total: play?.total ?? 0, points: play?.points ?? 0 })];
  }
  const totals = s.pips
    .map((pips, seat) => msg("bid.settle.total", { name: name(seat), pips }))
    .reduce<Words>((shown, next) => (shown ? msg("names.versus", { first: shown, second: next }) : next), "");
  if (s.seat < 0) return [msg("bid.settle.blocked_even", { round, totals }), msg("bid.settle.blocked_even_why")];
  const light = s.pips[s.seat] ?? 0;
  const heavy = s.pips[1 - s.seat] ?? 0;
  const rounded = Math.floor((heavy + 2) / 5) * 5;
  const paid = { name: name(s.seat), payer: name(1 - s.seat), transfer: s.transfer, heavy, light, rounded };
  return [
    msg("bid.settle.blocked", { round, totals, ...paid }),
    msg(s.transfer < rounded ? "bid.settle.blocked_why_capped" : "bid.settle.blocked_why", paid),
  ];
}

/** Why `text` cannot be bid now, in words ("" when it can): `amounts` are the legal bids. */
export function bidProblem(text: string, amounts: number[], min: number): Message | "" {
  const amount = Number(text);
  if (text.trim() === "" || !Number.isInteger(amount)) return msg("bid.problem.whole");
  if (amounts.includes(amount)) return "";
  if (amount < min) return msg("bid.problem.below", { amount, min });
  if (amount % BID_STEP) return msg("bid.problem.step", { amount, step: BID_STEP });
  if (!amounts.length) return msg("bid.problem.none");
  return msg("bid.problem.most", { amount, most: Math.max(...amounts) });
}
