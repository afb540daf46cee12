// Bid in words: why a round paid what it paid, and why a bid cannot be made.
import { SettlementKind, type BidPlayed, type BidSettlement, type BidView } from "./gen/photofinish/game/v1/bid_pb";
import { Gate } from "./gen/photofinish/game/v1/game_pb";

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
export function settlementWords(s: BidSettlement, names: string[], last: BidPlayed | null): [string, string] {
  const name = (seat: number) => names[seat] ?? `seat ${seat}`;
  const round = `Round ${s.roundNo}`;
  if (s.kind === SettlementKind.WENT_OUT) {
    const play = last?.seat === s.seat ? last : null;
    const tile = play?.tile ? ` with ${play.tile.text}` : "";
    const scored = play ? `That last play made ends ${play.total}: ${play.points ? `it scored ${play.points}` : "no score"}. ` : "";
    return [
      `${round}: ${name(s.seat)} went out${tile}: no bonus`,
      `${scored}Going out pays nothing for the tiles left in hand. ${name(s.seat)} is now the jockey: the next opening is auctioned.`,
    ];
  }
  const totals = s.pips.map((pips, seat) => `${name(seat)} ${pips}`).join(" vs ");
  if (s.seat < 0) return [`${round}: blocked, ${totals}: nothing moved`, "Nobody could play or draw, and equal hand totals pay nothing. The next round opens by tile rank."];
  const light = s.pips[s.seat] ?? 0;
  const heavy = s.pips[1 - s.seat] ?? 0;
  const rounded = Math.floor((heavy + 2) / 5) * 5;
  const capped = s.transfer < rounded ? `, capped at what ${name(1 - s.seat)} had left: ${s.transfer}` : "";
  return [
    `${round}: blocked, ${totals} → ${name(s.seat)} receives ${s.transfer}`,
    `Nobody could play or draw. ${name(s.seat)} had the lighter hand and receives ${name(1 - s.seat)}'s ${heavy} rounded to the nearest 5 (${rounded}${capped}); their own ${light} is not subtracted. The next round opens by tile rank.`,
  ];
}

/** Why `text` cannot be bid now, in words ("" when it can): `amounts` are the legal bids. */
export function bidProblem(text: string, amounts: number[], min: number): string {
  const amount = Number(text);
  if (text.trim() === "" || !Number.isInteger(amount)) return "Enter a bid in whole points.";
  if (amounts.includes(amount)) return "";
  if (amount < min) return `A bid of ${amount} is below the minimum: bid at least ${min}.`;
  if (amount % BID_STEP) return `Bids go up in steps of 5: ${amount} is not a multiple of 5.`;
  if (!amounts.length) return "You cannot afford any bid: accept or pass.";
  return `You cannot afford a bid of ${amount}: the most you can bid is ${Math.max(...amounts)}.`;
}
