// A Spit round's end in words: who went out, which centre pile each took, what each holds.
import type { SpitRoundEnded, SpitView } from "./gen/photofinish/game/v1/spit_pb";
import { msg, type Message, type Words } from "./i18n/messages";

/**
 * How the last round ended: its RoundEnded event and, when the table just before the
 * ending play is known, the centre piles' sizes as they were taken and how many stock
 * cards the other seat still had (null: not known, so not told).
 */
export interface RoundEnd {
  ended: SpitRoundEnded;
  sizes: { piles: number[]; stockLeft: number } | null;
}

/**
 * The centre piles' sizes as they were taken and the other seat's stock cards left, from
 * the table before the ending play onto `pile`; null unless they add up to the counts.
 */
export function takenSizes(ended: SpitRoundEnded, before: SpitView, pile: number): RoundEnd["sizes"] {
  const finisher = ended.finisher;
  const other = 1 - finisher;
  const piles = before.centre.map((p, index) => p.size + (index === pile ? 1 : 0));
  const stockLeft = (before.sides[other]?.stock ?? []).reduce((n, s) => n + (s.top ? 1 : 0) + s.hidden, 0);
  const spitCount = (seat: number) => before.sides[seat]?.spitCount ?? 0;
  const adds =
    ended.cardCounts[finisher] === spitCount(finisher) + (piles[ended.taken] ?? 0) &&
    ended.cardCounts[other] === spitCount(other) + stockLeft + (piles[1 - ended.taken] ?? 0);
  return adds ? { piles, stockLeft } : null;
}

/**
 * "Round 2: Ann went out." and what each took and now holds (rules §3.5). `name` gives a
 * seat's name, or null for the seat this page alone holds ("you").
 */
export function roundEndText(end: RoundEnd, name: (seat: number) => Words | null): [Message, Message] {
  const { roundNo, finisher, taken, cardCounts } = end.ended;
  const other = 1 - finisher;
  // Each seat as the messages take it: "you", or "other" and its name.
  const finisherName = name(finisher);
  const otherName = name(other);
  const who = { finisher: finisherName === null ? "you" : "other", finisherName: finisherName ?? "", other: otherName === null ? "you" : "other", otherName: otherName ?? "" };
  const sizes = end.sizes;
  let took = msg("spit.round_end.took", { ...who, pile: taken + 1, otherPile: 2 - taken });
  if (sizes) {
    const [mine, theirs] = [sizes.piles[taken] ?? 0, sizes.piles[1 - taken] ?? 0];
    const left = sizes.stockLeft ? msg("spit.round_end.left_in_stock", { ...who, count: sizes.stockLeft }) : "";
    const counts = { pile: taken + 1, pileCards: mine, otherPile: 2 - taken, otherCards: theirs, left };
    took = msg(mine === theirs ? "spit.round_end.took_sized" : "spit.round_end.took_smaller", { ...who, ...counts });
  }
  const now = msg("spit.round_end.now", { ...who, count: cardCounts[finisher] ?? 0, otherCount: cardCounts[other] ?? 0 });
  return [msg("spit.round_end.title", { ...who, round: roundNo }), msg("spit.round_end.text", { took, now })];
}
