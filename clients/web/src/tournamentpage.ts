// One tournament's page: what it is, its time, its entrants and live standings, my games,
// and Join or Withdraw as my state is (a rated one is for accounts: a guest gets Sign up).
import { ACCOUNT_NEEDED, accountNeeded } from "./accountwords";
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { entrantsText, pointsText, timeText } from "./following";
import { liveGames } from "./live";
import { gameName } from "./match";
import { playerName, playerNameShown, type Named } from "./names";
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
      h("button.link#tournament-back", { type: "button", onclick: () => actions.back() }, "← Lobby"),
      this.head,
      this.time,
      this.entry,
      this.status,
      h("h3", "Standings"),
      this.standingsHost,
      this.liveHost,
      h("h3", "My games"),
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
        if (why.reason) return this.say(`This tournament can't be shown: ${explain(why)}`);
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
      h("p.meta", `${gameName(t.game)} · ${t.rated ? "rated" : "casual"} · ${Math.round(t.durationS / 60)} min · ${entrantsText(t.entrants)}${t.createdBy ? ` · created by ${t.createdBy}` : ""}`),
    );
    this.tick();
    const open = t.status === Status.UPCOMING || t.status === Status.LIVE;
    const mine = this.mine();
    const forAccounts = t.rated && !this.session.account; // a guest's join would be refused
    const parts = [
      mine
        ? h("span.entered", `You are in: #${mine.rank}, ${pointsText(mine.points)}. `)
        : h("span", this.withdrawnLine() ?? (open ? "You are not in this tournament. " : "")),
      open && !mine && !forAccounts ? h("button.primary#tournament-join", { type: "button", onclick: () => void this.join(t) }, "Join") : null,
      open && !mine && forAccounts ? h("span.rated-note#tournament-account-needed", ...this.needAccount()) : null,
      open && mine ? h("button#tournament-withdraw", { type: "button", onclick: () => void this.withdraw(t) }, "Withdraw") : null,
    ];
    this.entry.replaceChildren(...parts.filter((part): part is HTMLElement => part !== null));
    this.standingsHost.replaceChildren(standingsTable(this.standings, this.session.playerId));
  }

  private withdrawnLine(): string | null {
    const gone = this.withdrawn();
    return gone ? `You withdrew (#${gone.rank}, ${pointsText(gone.points)} kept). ` : null;
  }

  private tick(): void {
    const t = this.standings?.tournament;
    if (t) this.time.textContent = timeText(t);
  }

  private async loadGames(): Promise<void> {
    try {
      const record = await arena.getTournament({ tournamentId: this.tournamentId }, { signal: this.abort.signal });
      const names = new Map<string, Named>((record.standings?.standings ?? []).map((s) => [s.playerId, s]));
      const mine = record.games.filter((g) => g.playerIds.includes(this.session.playerId));
      this.liveHost.replaceChildren(liveGames(record.games, names, (matchId) => this.actions.watch(matchId)) ?? "");
      this.gamesHost.replaceChildren(
        mine.length ? h("ol.game-list", mine.map((g) => h("li", { "data-match": g.matchId }, this.gameLine(g, names)))) : h("p", "No games yet."),
      );
    } catch {
      // the standings still show; the list comes with the next update
    }
  }

  private gameLine(g: TournamentGame, names: Map<string, Named>): string {
    const seat = g.playerIds.indexOf(this.session.playerId);
    const opponent = playerName(names.get(g.playerIds[1 - seat] ?? ""));
    const result =
      g.status === GameStatus.PLAYING
        ? "playing now"
        : g.status === GameStatus.FINISHED
          ? g.winner === seat
            ? "won"
            : "lost"
          : g.status === GameStatus.VOIDED
            ? "void (counts for nobody)"
            : "abandoned (counts for nobody)";
    return `vs ${opponent}: ${result}`;
  }

  private async join(t: Tournament): Promise<void> {
    try {
      this.actions.joined(await arena.joinTournament({ tournamentId: t.tournamentId }));
      this.say("Joined: your games start by themselves while the tournament runs.");
    } catch (error) {
      const why = refusal(error);
      if (why.reason === ACCOUNT_NEEDED) this.status.replaceChildren(...this.needAccount("status-sign-up"));
      else this.say(`Could not join: ${explain(why)}`);
    }
  }

  /** A guest told that a rated tournament is for accounts, with the Sign up that keeps its games. */
  private needAccount(id = "tournament-sign-up"): (string | HTMLElement)[] {
    return accountNeeded("join", id, () => this.actions.keepGames());
  }

  private async withdraw(t: Tournament): Promise<void> {
    try {
      this.actions.withdrew(await arena.withdrawTournament({ tournamentId: t.tournamentId }));
      this.say("Withdrawn: you will not be paired again (your points stay).");
    } catch (error) {
      this.say(`Could not withdraw: ${explain(refusal(error))}`);
    }
  }

  private say(text: string): void {
    this.status.replaceChildren(text);
  }
}

export function standingsTable(standings: Standings, me = ""): HTMLElement {
  return h(
    "table.ladder.standings-table",
    h("caption", `${standings.tournament?.name ?? ""}: standings`),
    h("thead", h("tr", h("th", "#"), h("th", "Player"), h("th", "Points"), h("th", "Games"), h("th", "Sheet"))),
    h(
      "tbody",
      standings.standings.map((s) =>
        h(
          `tr${s.playerId === me ? ".me" : ""}`,
          h("td", String(s.rank)),
          h("td.ladder-name", playerNameShown(s), `${s.onFire ? " 🔥" : ""}${s.playing ? " (playing)" : ""}${s.withdrawn ? " (withdrawn)" : ""}`),
          h("td", String(s.points)),
          h("td", String(s.games)),
          h("td", s.scoresheet),
        ),
      ),
    ),
  );
}
