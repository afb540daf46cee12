// The account screens in words: each refusal a person can meet while signing up, in or out,
// by its reason (never by the server's sentence), and why a session ended; and what a guest
// is told of rated play, which is for accounts, with the Sign up that keeps its games.
import { explain, type Refusal } from "./api";
import { h } from "./dom";
import { wordsNode } from "./i18n/live";
import { isKey, msg, type Message, type Words } from "./i18n/messages";

/** What went wrong with a sign-up, sign-in or sign-out, for the person who tried. */
export function accountProblem(why: Refusal): Words {
  if (!why.reason) return msg("account.unreachable");
  // A gateway without the accounts methods: the sign-in screen offers to play as a guest.
  if (why.reason === "unknown_method") return msg("account.problem.unknown_method");
  return isKey(`reason.${why.reason}`) ? explain(why) : msg("account.problem", { detail: explain(why) });
}

export const SIGNED_OUT_EVERYWHERE = msg("account.signed_out_everywhere");
export const ACCOUNT_DELETED = msg("account.deleted");

/** The sign-in screen's notice after a session ended by itself, with why when it is known. */
export function signedOutText(why: string): Message {
  const key = `account.ended.${why}`;
  return isKey(key) ? msg("account.signed_out_because", { reason: msg(key) }) : msg("account.signed_out");
}

/** The reason of a refusal of rated play (or a rated tournament) to a guest. */
export const ACCOUNT_NEEDED = "account_needed";

/** What a guest tried that is for accounts. */
export type RatedTry = "accept" | "queue" | "challenge" | "join" | "create";

/** A guest told that `what` is for accounts (or, beside a disabled "rated" box, the note), and
 * a Sign up button (the guest's own, keeping its games). */
export function accountNeeded(what: RatedTry | "note", id: string, signUp: () => void): (Node | string)[] {
  return [wordsNode(msg(`account.rated.${what}`)), " ", h(`button.sign-up-offer#${id}`, { type: "button", onclick: signUp }, msg("account.sign_up"))];
}
