// A player's name as the page shows it, wherever one is shown: a deleted account as
// "deleted player" (its name is gone), a guest's name with its guest mark, in words and not
// by colour alone. The words are the catalog's "names.*".
import { h } from "./dom";
import { msg, type Words } from "./i18n/messages";

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

// The bot pool's names (clients/bots/pool.py, bot_name): worded in the page's language. An
// account's username has no space or bracket, and a guest so named is shown as a guest.
const COMPUTER = /^Computer \((easy|medium|hard)\)$/;
const LEVELS = { easy: "names.level.easy", medium: "names.level.medium", hard: "names.level.hard" } as const;

/** "Computer (hard)" in the page's language, for a computer player; else the name as it is. */
function shownName(who: Named): Words {
  const level = who.guest ? null : COMPUTER.exec(who.name)?.[1];
  return level ? msg("names.computer", { level: msg(LEVELS[level as keyof typeof LEVELS]) }) : who.name;
}

/** "deleted player" or the name alone, for a panel that shows the guest mark apart. */
export function nameAlone(who: Named): Words {
  return who.deleted ? msg("names.deleted") : shownName(who);
}

/** Whether the player is shown with the guest mark (never a computer player). */
export function isMarkedGuest(who: Named): boolean {
  return Boolean(who.guest && !who.bot);
}

/** "deleted player", "Ann (guest)" or "Ann": a player's name in words (`unknown` for nobody). */
export function playerName(who: Named | undefined, unknown: Words = "?"): Words {
  if (!who) return unknown;
  if (who.deleted) return msg("names.deleted");
  return isMarkedGuest(who) ? msg("names.guest", { name: who.name }) : shownName(who);
}

/**
 * A seat's name at a player's own table: their own seat "Ann (you)", the mark that tells
 * them most (the lobby says they are a guest, and a phone has room for one mark), any
 * other seat as playerName.
 */
export function seatName(who: Named | undefined, yours: boolean, unknown: Words = "?"): Words {
  return yours ? msg("names.you", { name: who ? shownName(who) : unknown }) : playerName(who, unknown);
}

/** The same words as page content: the mark in a span.guest-mark, "deleted player" in a span.deleted-player. */
export function playerNameShown(who: Named | undefined, unknown: Words = "?"): (Words | HTMLElement)[] {
  if (!who) return [unknown];
  if (who.deleted) return [h("span.deleted-player", msg("names.deleted"))];
  return isMarkedGuest(who) ? [who.name, h("span.guest-mark", msg("names.guest_mark_after"))] : [shownName(who)];
}

/** "Ann vs Ben (guest)", as page content, for a match's heading. */
export function versusShown(players: (Named | undefined)[]): (Words | HTMLElement)[] {
  return players.flatMap((who, seat) => [...(seat ? [msg("names.vs")] : []), ...playerNameShown(who)]);
}

/** "Ann vs Ben (guest)", in words (an aria-label, a list line). */
export function versusText(players: (Named | undefined)[]): Words {
  const [first, ...rest] = players.map((who) => playerName(who));
  return rest.reduce<Words>((shown, next) => msg("names.versus", { first: shown, second: next }), first ?? "");
}

/**
 * The player's name as a link to their profile, for an account; a guest's (guests have no
 * profile) and a deleted account's as words only. `open` shows the profile.
 */
export function profileLinked(who: Named & { playerId: string }, open: (playerId: string, name: string) => void): (Words | HTMLElement)[] {
  const shown = playerNameShown(who);
  if (who.deleted || who.guest) return shown;
  return [h("button.link.profile-link", { type: "button", title: msg("profile.open", { name: who.name }), onclick: () => open(who.playerId, who.name) }, shown)];
}

/** "Ann vs Ben (guest)" with each account's name a link to its profile (a finished match's heading). */
export function versusLinked(players: (Named & { playerId: string })[], open: (playerId: string, name: string) => void): (Words | HTMLElement)[] {
  return players.flatMap((who, seat) => [...(seat ? [msg("names.vs")] : []), ...profileLinked(who, open)]);
}
