// The account screens in words: each refusal a person can meet while signing up, in or out,
// by its reason (never by the server's sentence), and why a session ended; and what a guest
// is told of rated play, which is for accounts, with the Sign up that keeps its games.
import { explain, type Refusal } from "./api";
import { h } from "./dom";

const plural = new Intl.PluralRules("en");

/** "1 second", "12 seconds": a wait the server asked for, rounded up. */
export function secondsText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return `${seconds} ${plural.select(seconds) === "one" ? "second" : "seconds"}`;
}

const PROBLEMS: Record<string, string> = {
  taken: "That username is taken: choose another one.",
  name_length: "A username has 3 to 20 characters.",
  name_characters: "A username is letters and digits, with _ - or . only between them: no spaces, symbols or emoji.",
  password_length: "A password has 8 to 256 characters.",
  password_common: "That password is one of the most common ones, which are guessed first: choose another.",
  bad_credentials: "Wrong username or password.",
  guest_claimed: "This guest has already become an account: sign in to it instead.",
  account_needed: "That is for accounts: sign up or sign in first.",
  accounts_unavailable: "Accounts are not offered here right now: play as a guest.",
  unknown_method: "Accounts are not offered here yet: play as a guest.",
  no_such_session: "That device was already signed out.",
  challenge_unknown: "That took too long, or was answered already: try the passkey again.",
  passkey_unknown: "That passkey is on no account here (it was removed, or its account deleted): sign in with the password.",
  passkey_refused: "That passkey could not be checked: try again, or sign in with the password.",
  bad_origin: "Passkeys work only at the arena's own name, such as http://localhost:7100.",
};

/** What went wrong with a sign-up, sign-in or sign-out, for the person who tried. */
export function accountProblem(why: Refusal): string {
  const wait = Number(why.metadata["retry_after_ms"] ?? "0");
  if (why.reason === "too_many_attempts") return `Too many failed sign-ins: wait ${secondsText(wait)}, then try again.`;
  if (why.reason === "rate_limited") return `Too many sign-ins from this address: wait ${secondsText(wait)}, then try again.`;
  if (!why.reason) return "The server could not be reached: check the connection and try again.";
  return PROBLEMS[why.reason] ?? `That did not work: ${explain(why)}`;
}

const ENDINGS: Record<string, string> = {
  session_ended: "this device's session was ended (signed out from another device, or everywhere).",
  refresh_reused: "this session's sign-in was used from two places at once, so it was ended to keep the account safe.",
  refresh_expired: "this device was not used for 30 days.",
  refresh_unknown: "this device's session is no longer known.",
  bad_token: "the sign-in is no longer valid.",
  another_tab: "you signed out in another tab.",
};

export const SIGNED_OUT_EVERYWHERE = "You signed out on every device.";
export const ACCOUNT_DELETED = "Your account is deleted, and every device signed out.";

/** The sign-in screen's notice after a session ended by itself, with why when it is known. */
export function signedOutText(why: string): string {
  const reason = ENDINGS[why];
  return reason ? `You were signed out: ${reason}` : "You were signed out.";
}

/** The reason of a refusal of rated play (or a rated tournament) to a guest. */
export const ACCOUNT_NEEDED = "account_needed";

/** Beside a guest's "rated" box, which is unticked and disabled. */
export const RATED_NOTE = "Rated games are for accounts.";

/** What a guest tried that is for accounts. */
export type RatedTry = "accept" | "queue" | "challenge" | "join" | "create";

const RATED_TRIES: Record<RatedTry, string> = {
  accept: "That challenge is rated, and rated games are for accounts: sign up (you keep your games), then accept the code again.",
  queue: "Rated games are for accounts: sign up (you keep your games), or play casual.",
  challenge: "Rated games are for accounts: sign up (you keep your games), or challenge casual.",
  join: "This tournament is rated, and rated tournaments are for accounts: sign up (you keep your games), then join it.",
  create: "Rated tournaments are for accounts: sign up (you keep your games), or create a casual one.",
};

/** A guest told that `what` is for accounts, and a Sign up button (the guest's own, keeping its games). */
export function accountNeeded(what: RatedTry | "note", id: string, signUp: () => void): (string | HTMLElement)[] {
  const text = what === "note" ? RATED_NOTE : RATED_TRIES[what];
  return [`${text} `, h(`button.sign-up-offer#${id}`, { type: "button", onclick: signUp }, "Sign up")];
}
