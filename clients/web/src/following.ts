// Following a tournament the player joined: its standings as they change, and each of
// the player's games as the server pairs it, so the page can go to it by itself. The bar
// shown above every screen while following: the tournament, its time, the player's score.
import { arena, explain, refusal } from "./api";
import { formatMs } from "./clock";
import { h } from "./dom";
import { setText, wordsNode } from "./i18n/live";
import { msg, textOf, type Message } from "./i18n/messages";
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";
import { Status, type Standings, type Tournament } from "./gen/photofinish/tournaments/v1/tournaments_pb";
import { gameName } from "./match";

const RETRY_PAUSE_MS = 1000;
const MAX_PAUSES = 5;
const TICK_MS = 1000;

export interface FollowEvents {
  standings(standings: Standings): void;
  match(assignment: MatchAssignment): void;
  /** The tournament finished (the final standings came first) or no longer exists. */
  ended(why: string): void;
}

/** Watches one tournament for the signed-in player, reconnecting while it runs. */
export class TournamentFollower {
  standings: Standings | null = null;
  private readonly abort = new AbortController();

  constructor(
    readonly tournamentId: string,
    private readonly events: FollowEvents,
  ) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.abort.signal.aborted) {
      try {
        const request = { tournamentId: this.tournamentId };
        for await (const update of arena.watchTournament(request, { signal: this.abort.signal })) {
          failures = 0;
          if (update.kind.case === "standings") {
            this.standings = update.kind.value;
            this.events.standings(update.kind.value);
          } else if (update.kind.case === "match") {
            this.events.match(update.kind.value);
          }
        }
        // The server ends the stream once the tournament has finished.
        if (this.standings?.tournament?.status === Status.FINISHED) return this.events.ended("finished");
      } catch (error) {
        if (this.abort.signal.aborted) return;
        const why = refusal(error);
        if (why.reason === "no_such_tournament") return this.events.ended(textOf(explain(why)));
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_PAUSES, failures) * RETRY_PAUSE_MS));
    }
  }
}

/** Where the tournament is in its time, in words: "starts in 0:45", "4:12 left", … */
export function timeText(t: Tournament, now = Date.now()): Message | string {
  const starts = Number(t.startsAtUnixMs);
  const ends = starts + t.durationS * 1000;
  switch (t.status) {
    case Status.UPCOMING:
      return msg("following.starts_in", { time: formatMs(starts - now) });
    case Status.LIVE:
      return msg("following.left", { time: formatMs(ends - now) });
    case Status.ENDING:
      return msg("following.time_up");
    case Status.FINISHED:
      return msg("tournaments.status.finished");
    default:
      return "";
  }
}

export function entrantsText(count: number): Message {
  return msg("following.entrants", { count });
}

export function pointsText(points: number): Message {
  return msg("following.points", { count: points });
}

/** The line above every screen while following: what, how long, and where I stand. */
export class TournamentBar {
  readonly root = h("div.tournament-bar#tournament-bar", { role: "status", "aria-live": "polite" });
  private readonly line = h("span.tournament-line");
  private readonly time = h("span.tournament-time");
  private readonly extra = h("span.tournament-extra");
  private timer = 0;

  constructor(
    private readonly playerId: string,
    private readonly follower: TournamentFollower,
    private readonly open: () => void,
  ) {
    this.root.append(
      this.line,
      this.time,
      this.extra,
      h("button.link#tournament-open", { type: "button", onclick: () => this.open() }, msg("tournament.standings")),
    );
    this.timer = window.setInterval(() => this.tick(), TICK_MS);
  }

  stop(): void {
    window.clearInterval(this.timer);
    this.root.remove();
  }

  /** Show a message (and an action) after the tournament's line: a game waiting, the end. */
  note(...parts: (HTMLElement | Message | string)[]): void {
    this.extra.replaceChildren(...parts.map((part) => (typeof part === "string" || part instanceof Node ? part : wordsNode(part))));
  }

  render(): void {
    const standings = this.follower.standings;
    const t = standings?.tournament;
    if (!standings || !t) return;
    const mine = standings.standings.find((s) => s.playerId === this.playerId);
    const line = msg(t.rated ? "following.bar_rated" : "following.bar", { name: t.name, game: gameName(t.game) });
    setText(this.line, mine ? msg("following.bar_place", { line, rank: mine.rank, count: standings.standings.length, points: pointsText(mine.points) }) : line);
    this.tick();
  }

  private tick(): void {
    const t = this.follower.standings?.tournament;
    setText(this.time, t ? msg("following.bar_time", { time: timeText(t) }) : "");
  }
}
