// What survives a reload: the session (a guest's, or an account's refresh token: never its
// access token, which session.ts keeps in memory), the match being played and the
// tournament the player follows.
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";

export interface Session {
  token: string; // a guest's bearer token; "" for an account
  playerId: string;
  name: string; // a guest's display name, or an account's username
  expiresAtUnix: number; // when the guest's token, or the account's refresh token, expires
  account?: AccountKeys; // absent for a guest
  operator?: boolean; // an account with the operator role: the page offers the fair-play queue
}

/** What an account's session keeps across reloads: the refresh token is used up at each refresh. */
export interface AccountKeys {
  sessionId: string;
  refreshToken: string;
}

export interface CurrentMatch {
  matchId: string;
  game: number;
  seats: number[];
  rated: boolean;
  names: string[];
  tournamentId?: string; // a game of this tournament (the page goes to the next by itself)
  level?: number; // against the computer: its level, for "Play again"
}

/** A tournament the player has joined: the page follows it until it ends or they leave. */
export interface Followed {
  tournamentId: string;
  name: string;
}

export const SESSION_KEY = "pf.session"; // another tab's change to it is a storage event here
const MATCH = "pf.match";
const FOLLOWED = "pf.tournament";
const ENDED = "pf.ended"; // why the last session here ended, for the other tabs to say

export function loadSession(): Session | null {
  const raw = localStorage.getItem(SESSION_KEY);
  if (!raw) return null;
  const session = JSON.parse(raw) as Session;
  // An account's expired refresh token is kept: the server's refusal says why it ended.
  return session.account || session.expiresAtUnix * 1000 > Date.now() ? session : null;
}

export function saveSession(session: Session): void {
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

/** Forget the session and what was played under it; `why` it ended is kept for other tabs. */
export function forgetSession(why = "another_tab"): void {
  localStorage.setItem(ENDED, why);
  localStorage.removeItem(SESSION_KEY);
  localStorage.removeItem(MATCH);
  localStorage.removeItem(FOLLOWED);
}

/** Why the session was forgotten, by this tab or another. */
export function whyForgotten(): string {
  return localStorage.getItem(ENDED) ?? "another_tab";
}

export function loadMatch(): CurrentMatch | null {
  const raw = localStorage.getItem(MATCH);
  return raw ? (JSON.parse(raw) as CurrentMatch) : null;
}

export function saveMatch(assignment: MatchAssignment, tournamentId?: string, level?: number): CurrentMatch {
  const match: CurrentMatch = {
    matchId: assignment.matchId,
    game: assignment.game,
    seats: [...assignment.seats],
    rated: assignment.rated,
    names: [...assignment.playerNames],
    tournamentId,
    level,
  };
  localStorage.setItem(MATCH, JSON.stringify(match));
  return match;
}

export function forgetMatch(): void {
  localStorage.removeItem(MATCH);
}

export function loadFollowed(): Followed | null {
  const raw = localStorage.getItem(FOLLOWED);
  return raw ? (JSON.parse(raw) as Followed) : null;
}

export function saveFollowed(followed: Followed): void {
  localStorage.setItem(FOLLOWED, JSON.stringify(followed));
}

export function forgetFollowed(): void {
  localStorage.removeItem(FOLLOWED);
}
