// A playing card as drawn on the table.
import { h } from "./dom";
import { Suit, type Card } from "./gen/photofinish/game/v1/spit_pb";

const RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS: Record<number, string> = { [Suit.SPADES]: "♠", [Suit.HEARTS]: "♥", [Suit.DIAMONDS]: "♦", [Suit.CLUBS]: "♣" };

export function cardFace(card: Card | undefined, extra: Record<string, unknown> = {}): HTMLElement {
  if (!card) return h("div.card.empty", extra, "");
  const red = card.suit === Suit.HEARTS || card.suit === Suit.DIAMONDS;
  return h(
    `div.card${red ? ".red" : ""}`,
    { "aria-label": card.text, ...extra },
    h("span.rank", RANKS[card.rank] ?? "?"),
    h("span.suit", SUITS[card.suit] ?? ""),
  );
}

/** Ranks wrap: K and A are adjacent. */
export function adjacent(a: number, b: number): boolean {
  const diff = Math.abs(a - b);
  return diff === 1 || diff === 12;
}
