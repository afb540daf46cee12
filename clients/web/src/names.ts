// A player's name as the page shows it, wherever one is shown: a deleted account as
// "deleted player" (its name is gone), a guest's name with its guest mark, in words and not
// by colour alone. The words live here alone, until the page has message catalogs.
import { h } from "./dom";

export const DELETED_PLAYER = "deleted player";
export const GUEST_MARK = " (guest)";
export const YOU_MARK = " (you)";
const VERSUS = " vs ";

/**
 * What the page knows of a player: an events.v1.Player (match updates, live matches,
 * replays), a ladder entry, a tournament standing, a history entry's opponent.
 */
export interface Named {
  name: string;
  guest?: boolean;
  deleted?: boolean;
  // A computer player is never a guest; the bot pool names it "Computer (level)" already.
  bot?: boolean;
}

/** " (guest)" for a guest (never a computer player), "" for anyone else. */
export function guestMark(who: Named): string {
  return who.guest && !who.bot ? GUEST_MARK : "";
}

/** "deleted player", "Ann (guest)" or "Ann": a player's name as text (`unknown` for nobody). */
export function playerName(who: Named | undefined, unknown = "?"): string {
  if (!who) return unknown;
  if (who.deleted) return DELETED_PLAYER;
  return `${who.name}${guestMark(who)}`;
}

/**
 * A seat's name at a player's own table: their own seat "Ann (you)", the mark that tells
 * them most (the lobby says they are a guest, and a phone has room for one mark), any
 * other seat as playerName.
 */
export function seatName(who: Named | undefined, yours: boolean, unknown = "?"): string {
  return yours ? `${who?.name ?? unknown}${YOU_MARK}` : playerName(who, unknown);
}

/** The same words as page content: the mark in a span.guest-mark, "deleted player" in a span.deleted-player. */
export function playerNameShown(who: Named | undefined, unknown = "?"): (string | HTMLElement)[] {
  if (!who) return [unknown];
  if (who.deleted) return [h("span.deleted-player", DELETED_PLAYER)];
  const mark = guestMark(who);
  return mark ? [who.name, h("span.guest-mark", mark)] : [who.name];
}

/** "Ann vs Ben (guest)", as page content, for a match's heading. */
export function versusShown(players: (Named | undefined)[]): (string | HTMLElement)[] {
  return players.flatMap((who, seat) => [...(seat ? [VERSUS] : []), ...playerNameShown(who)]);
}

/** "Ann vs Ben (guest)", as text (an aria-label, a list line). */
export function versusText(players: (Named | undefined)[]): string {
  return players.map((who) => playerName(who)).join(VERSUS);
}
