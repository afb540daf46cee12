// What survives a reload: the guest session and the match being played.
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
}

const SESSION = "pf.session";
const MATCH = "pf.match";

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
}

export function loadMatch(): CurrentMatch | null {
  const raw = localStorage.getItem(MATCH);
  return raw ? (JSON.parse(raw) as CurrentMatch) : null;
}

export function saveMatch(assignment: MatchAssignment): CurrentMatch {
  const match: CurrentMatch = {
    matchId: assignment.matchId,
    game: assignment.game,
    seats: [...assignment.seats],
    rated: assignment.rated,
    names: [...assignment.playerNames],
  };
  localStorage.setItem(MATCH, JSON.stringify(match));
  return match;
}

export function forgetMatch(): void {
  localStorage.removeItem(MATCH);
}
