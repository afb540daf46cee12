// A playing card as drawn on the table.
import { h } from "./dom";
import { Suit, type Card } from "./gen/photofinish/game/v1/spit_pb";

const RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS: Record<number, string> = { [Suit.SPADES]: "♠", [Suit.HEARTS]: "♥", [Suit.DIAMONDS]: "♦", [Suit.CLUBS]: "♣" };

/**
 * A card's face: a button (Enter and Space press it) when the player can act on it, else a
 * picture named by the card ("7♠"); an empty space when there is no card. `extra` adds
 * attributes.
 */
export function cardFace(card: Card | undefined, extra: Record<string, unknown> = {}, operable = false): HTMLElement {
  const tag = operable ? "button" : "span";
  const role = operable ? { type: "button" } : card ? { role: "img" } : { "aria-hidden": "true" };
  if (!card) return h(`${tag}.card.empty`, { ...role, ...extra }, "");
  const red = card.suit === Suit.HEARTS || card.suit === Suit.DIAMONDS;
  return h(
    `${tag}.card${red ? ".red" : ""}`,
    { ...role, "aria-label": card.text, "data-piece": card.text, ...extra },
    h("span.rank", { "aria-hidden": "true" }, RANKS[card.rank] ?? "?"),
    h("span.suit", { "aria-hidden": "true" }, SUITS[card.suit] ?? ""),
  );
}

/** Ranks wrap: K and A are adjacent. */
export function adjacent(a: number, b: number): boolean {
  const diff = Math.abs(a - b);
  return diff === 1 || diff === 12;
}
