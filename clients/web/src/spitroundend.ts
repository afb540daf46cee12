// A Spit round's end in words: who went out, which centre pile each took, what each holds.
import type { SpitRoundEnded, SpitView } from "./gen/photofinish/game/v1/spit_pb";

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
 * seat's name, or "" for the seat this page alone holds ("you").
 */
export function roundEndText(end: RoundEnd, name: (seat: number) => string): [string, string] {
  const { roundNo, finisher, taken, cardCounts } = end.ended;
  const other = 1 - finisher;
  const who = (seat: number) => name(seat) || "You";
  const whose = (seat: number) => (name(seat) ? "their" : "your");
  const has = (seat: number) => (name(seat) ? "has" : "have");
  const cards = (n: number) => (n === 1 ? "1 card" : `${n} cards`);
  const sizes = end.sizes;
  let took = `${who(finisher)} took centre pile ${taken + 1}. ${who(other)} took centre pile ${2 - taken} and ${whose(other)} cards left in stock.`;
  if (sizes) {
    const [mine, theirs] = [sizes.piles[taken] ?? 0, sizes.piles[1 - taken] ?? 0];
    const which = mine === theirs ? "centre pile" : "the smaller centre pile, pile";
    const left = sizes.stockLeft ? ` with ${whose(other)} ${cards(sizes.stockLeft)} left in stock` : "";
    took = `${who(finisher)} took ${which} ${taken + 1} (${cards(mine)}). ${who(other)} took pile ${2 - taken} (${cards(theirs)})${left}.`;
  }
  const now = `${who(finisher)} now ${has(finisher)} ${cards(cardCounts[finisher] ?? 0)}, ${name(other) || "you"} ${cardCounts[other] ?? 0}.`;
  return [`Round ${roundNo}: ${who(finisher)} went out.`, `${took} ${now}`];
}
