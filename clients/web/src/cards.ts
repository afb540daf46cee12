// A playing card as drawn on the table: its face shows the rank and the suit's symbol as
// printed on cards in every language (a picture); its name, read aloud, is the catalog's.
import { h } from "./dom";
import { Suit, type Card } from "./gen/photofinish/game/v1/spit_pb";
import { msg, type Key, type Message } from "./i18n/messages";

const RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS: Record<number, string> = { [Suit.SPADES]: "♠", [Suit.HEARTS]: "♥", [Suit.DIAMONDS]: "♦", [Suit.CLUBS]: "♣" };
const RANK_NAMES: Key[] = ["cards.rank.1", "cards.rank.2", "cards.rank.3", "cards.rank.4", "cards.rank.5", "cards.rank.6", "cards.rank.7", "cards.rank.8", "cards.rank.9", "cards.rank.10", "cards.rank.11", "cards.rank.12", "cards.rank.13"];
const SUIT_NAMES: Record<number, Key> = { [Suit.SPADES]: "cards.suit.spades", [Suit.HEARTS]: "cards.suit.hearts", [Suit.DIAMONDS]: "cards.suit.diamonds", [Suit.CLUBS]: "cards.suit.clubs" };

/** A card's name ("7♠" in English, as players write it): its label, and in sentences. */
export function cardName(card: Card): Message | string {
  const rank = RANK_NAMES[card.rank - 1];
  const suit = SUIT_NAMES[card.suit];
  return rank && suit ? msg("cards.card", { rank: msg(rank), suit: msg(suit) }) : card.text;
}

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
    { ...role, "aria-label": cardName(card), "data-piece": card.text, ...extra },
    h("span.rank", { "aria-hidden": "true" }, RANKS[card.rank] ?? "?"),
    h("span.suit", { "aria-hidden": "true" }, SUITS[card.suit] ?? ""),
  );
}

/** Ranks wrap: K and A are adjacent. */
export function adjacent(a: number, b: number): boolean {
  const diff = Math.abs(a - b);
  return diff === 1 || diff === 12;
}
