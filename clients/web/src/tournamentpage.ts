// One tournament's page: what it is, its time, its entrants and live standings, my games,
// and Join or Withdraw as my state is (a rated one is for accounts: a guest gets Sign up).
import { ACCOUNT_NEEDED, accountNeeded } from "./accountwords";
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { setText } from "./i18n/live";
import { msg, type Message, type Words } from "./i18n/messages";
import { entrantsText, pointsText, timeText } from "./following";
import { liveGames } from "./live";
import { gameName } from "./match";
import { playerName, profileLinked, type Named } from "./names";
import {
  GameStatus,
  Status,
  type Standings,
  type Tournament,
  type TournamentGame,
} from "./gen/photofinish/tournaments/v1/tournaments_pb";
import type { Session } from "./store";

const TICK_MS = 1000;
const RETRY_PAUSE_MS = 2000;
const GAMES_REFRESH_MS = 5000;

export interface TournamentActions {
  joined(t: Tournament): void;
  withdrew(t: Tournament): void;
  back(): void;
  watch(matchId: string): void; // one of its live games, as a spectator
  keepGames(): void; // a guest's sign-up, which keeps its games (then back here)
  profile(playerId: string, name: string): void; // a player's, from the standings
}

export class TournamentPage {
  readonly root = h("section.tournament-page");
  private readonly abort = new AbortController();
  private readonly head = h("div.tournament-head");
  private readonly time = h("p.tournament-time#tournament-time");
  private readonly status = h("p.lobby-status", { role: "status", "aria-live": "polite" });
  private readonly entry = h("div.row.entry");
  private readonly standingsHost = h("div.standings");
  private readonly gamesHost = h("div.my-games");
  private readonly liveHost = h("div.live-games#tournament-live");
  private standings: Standings | null = null;
  private timer = 0;
  private gamesTimer = 0;

  constructor(
    private readonly tournamentId: string,
    private readonly session: Session,
    private readonly actions: TournamentActions,
  ) {
    this.root.append(
      h("button.link#tournament-back", { type: "button", onclick: () => actions.back() }, msg("common.back_to_lobby")),
      this.head,
      this.time,
      this.entry,
      this.status,
      h("h3", msg("tournament.standings")),
      this.standingsHost,
      this.liveHost,
      h("h3", msg("games.mine")),
      this.gamesHost,
    );
  }

  start(): void {
    void this.watch();
    this.timer = window.setInterval(() => this.tick(), TICK_MS);
    this.gamesTimer = window.setInterval(() => void this.loadGames(), GAMES_REFRESH_MS); // new pairings: live games
  }

  stop(): void {
    this.abort.abort();
    window.clearInterval(this.timer);
    window.clearInterval(this.gamesTimer);
  }

  private async watch(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        const request = { tournamentId: this.tournamentId };
        for await (const update of arena.watchTournament(request, { signal: this.abort.signal })) {
          if (update.kind.case !== "standings") continue; // my games: the page-wide follower goes to them
          this.standings = update.kind.value;
          this.render();
          void this.loadGames();
        }
        if (this.standings?.tournament?.status === Status.FINISHED) return;
      } catch (error) {
        if (this.abort.signal.aborted) return;
        const why = refusal(error);
        if (why.reason) return this.say(msg("tournament.cannot_show", { detail: explain(why) }));
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }

  private mine() {
    return this.standings?.standings.find((s) => s.playerId === this.session.playerId && !s.withdrawn);
  }

  private withdrawn() {
    return this.standings?.standings.find((s) => s.playerId === this.session.playerId && s.withdrawn);
  }

  private render(): void {
    const t = this.standings?.tournament;
    if (!this.standings || !t) return;
    this.head.replaceChildren(
      h("h2", t.name),
      h(
        "p.meta",
        msg(t.createdBy ? "tournament.meta_by" : "tournament.meta", {
          game: gameName(t.game),
          terms: t.rated ? msg("terms.rated") : msg("terms.casual"),
          minutes: Math.round(t.durationS / 60),
          entrants: entrantsText(t.entrants),
          by: t.createdBy,
        }),
      ),
    );
    this.tick();
    const open = t.status === Status.UPCOMING || t.status === Status.LIVE;
    const mine = this.mine();
    const forAccounts = t.rated && !this.session.account; // a guest's join would be refused
    const line = this.withdrawnLine() ?? (open ? msg("tournament.not_in") : null);
    const parts = [
      mine ? h("span.entered", msg("tournament.in", { rank: mine.rank, points: pointsText(mine.points) }), " ") : h("span", line, line ? " " : null),
      open && !mine && !forAccounts ? h("button.primary#tournament-join", { type: "button", onclick: () => void this.join(t) }, msg("tournaments.join")) : null,
      open && !mine && forAccounts ? h("span.rated-note#tournament-account-needed", ...this.needAccount()) : null,
      open && mine ? h("button#tournament-withdraw", { type: "button", onclick: () => void this.withdraw(t) }, msg("tournament.withdraw")) : null,
    ];
    this.entry.replaceChildren(...parts.filter((part): part is HTMLElement => part !== null));
    this.standingsHost.replaceChildren(standingsTable(this.standings, this.session.playerId, (id, name) => this.actions.profile(id, name)));
  }

  private withdrawnLine(): Message | null {
    const gone = this.withdrawn();
    return gone ? msg("tournament.withdrew", { rank: gone.rank, points: pointsText(gone.points) }) : null;
  }

  private tick(): void {
    const t = this.standings?.tournament;
    if (t) setText(this.time, timeText(t));
  }

  private async loadGames(): Promise<void> {
    try {
      const record = await arena.getTournament({ tournamentId: this.tournamentId }, { signal: this.abort.signal });
      const names = new Map<string, Named>((record.standings?.standings ?? []).map((s) => [s.playerId, s]));
      const mine = record.games.filter((g) => g.playerIds.includes(this.session.playerId));
      this.liveHost.replaceChildren(liveGames(record.games, names, (matchId) => this.actions.watch(matchId)) ?? "");
      this.gamesHost.replaceChildren(
        mine.length ? h("ol.game-list", mine.map((g) => h("li", { "data-match": g.matchId }, this.gameLine(g, names)))) : h("p", msg("tournament.no_games")),
      );
    } catch {
      // the standings still show; the list comes with the next update
    }
  }

  private gameLine(g: TournamentGame, names: Map<string, Named>): Message {
    const seat = g.playerIds.indexOf(this.session.playerId);
    const opponent = playerName(names.get(g.playerIds[1 - seat] ?? ""));
    const result =
      g.status === GameStatus.PLAYING
        ? "tournament.game.playing"
        : g.status === GameStatus.FINISHED
          ? g.winner === seat
            ? "tournament.game.won"
            : "tournament.game.lost"
          : g.status === GameStatus.VOIDED
            ? "tournament.game.void"
            : "tournament.game.abandoned";
    return msg("tournament.game_line", { opponent, result: msg(result) });
  }

  private async join(t: Tournament): Promise<void> {
    try {
      this.actions.joined(await arena.joinTournament({ tournamentId: t.tournamentId }));
      this.say(msg("tournament.joined"));
    } catch (error) {
      const why = refusal(error);
      if (why.reason === ACCOUNT_NEEDED) this.status.replaceChildren(...this.needAccount("status-sign-up"));
      else this.say(msg("tournaments.could_not_join", { detail: explain(why) }));
    }
  }

  /** A guest told that a rated tournament is for accounts, with the Sign up that keeps its games. */
  private needAccount(id = "tournament-sign-up"): (string | Node)[] {
    return accountNeeded("join", id, () => this.actions.keepGames());
  }

  private async withdraw(t: Tournament): Promise<void> {
    try {
      this.actions.withdrew(await arena.withdrawTournament({ tournamentId: t.tournamentId }));
      this.say(msg("tournament.withdrawn"));
    } catch (error) {
      this.say(msg("tournament.could_not_withdraw", { detail: explain(refusal(error)) }));
    }
  }

  private say(words: Words): void {
    setText(this.status, words);
  }
}

export function standingsTable(standings: Standings, me: string, profile: (playerId: string, name: string) => void): HTMLElement {
  return h(
    "table.ladder.standings-table",
    h("caption", msg("tournament.standings_caption", { name: standings.tournament?.name ?? "" })),
    h("thead", h("tr", h("th", msg("table.rank")), h("th", msg("table.player")), h("th", msg("table.points")), h("th", msg("table.games")), h("th", msg("table.sheet")))),
    h(
      "tbody",
      standings.standings.map((s) =>
        h(
          `tr${s.playerId === me ? ".me" : ""}`,
          h("td", String(s.rank)),
          h("td.ladder-name", profileLinked(s, profile), s.onFire ? " 🔥" : null, s.playing ? [" ", msg("tournament.playing")] : null, s.withdrawn ? [" ", msg("tournament.withdrawn_mark")] : null),
          h("td", String(s.points)),
          h("td", String(s.games)),
          h("td", s.scoresheet),
        ),
      ),
    ),
  );
}
