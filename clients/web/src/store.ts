// What survives a reload: the guest session, the match being played and the tournament
// the player follows.
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";

export interface Session {
  token: string;
  playerId: string;
  name: string;
  expiresAtUnix: number;
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

const SESSION = "pf.session";
const MATCH = "pf.match";
const FOLLOWED = "pf.tournament";

export function loadSession(): Session | null {
  const raw = localStorage.getItem(SESSION);
  if (!raw) return null;
  const session = JSON.parse(raw) as Session;
  return session.expiresAtUnix * 1000 > Date.now() ? session : null;
}

export function saveSession(session: Session): void {
  localStorage.setItem(SESSION, JSON.stringify(session));
}

export function forgetSession(): void {
  localStorage.removeItem(SESSION);
  localStorage.removeItem(MATCH);
  localStorage.removeItem(FOLLOWED);
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
