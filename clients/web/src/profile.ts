// A player's profile (#profile/<player>/<name>): for each game they played, the rating now
// with its RD and rank, the matches won, lost and voided, and the rating after each rated
// game as a chart (uPlot), from the ratings service's GetProfile. Guests have no profile.
import uPlot from "uplot";
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { dateText, decimal } from "./i18n/figures";
import { setText } from "./i18n/live";
import { msg, t } from "./i18n/messages";
import { Verdict, type GameProfile, type HistoryEntry, type Profile, type SpitFigures } from "./gen/photofinish/ratings/v1/ratings_pb";
import type { PlayerTournaments } from "./gen/photofinish/tournaments/v1/tournaments_pb";
import { pointsText } from "./following";
import { gameName } from "./match";
import { playerNameShown } from "./names";

const CHART_HEIGHT = 180;
const MIN_POINTS = 2; // a line needs two
const MIN_WIDTH = 200;
const DAY_S = 86_400;
const RECENT = 5; // games listed on the profile; the rest a page at a time (My games)

export interface ProfileActions {
  back(): void;
  games(playerId: string, name: string): void; // every match of theirs, a page at a time
  tournament(tournamentId: string): void; // one they finished in
  replay(matchId: string): void; // a recent game the reader played in
}

/** What the server's stamps say of a player's Spit: races, and reactions to the opponent. */
export function spitFigures(figures: SpitFigures): HTMLElement[] {
  const ms = (value: number | undefined) => () => (value === undefined ? "–" : decimal(value));
  return [
    h("p.profile-races", msg("profile.races", { won: figures.racesWon, lost: figures.racesLost, margin: ms(figures.medianMarginMs) })),
    h("p.profile-reaction", msg("profile.reaction", { median: ms(figures.medianAnswerMs), count: figures.answers })),
    h("p.profile-chain", msg("profile.chain", { median: ms(figures.medianChainMs), count: figures.chains })),
  ];
}

export class ProfilePage {
  readonly root = h("section.profile");
  private readonly heading = h("h2#profile-name");
  private readonly body = h("div.profile-games", { "aria-live": "polite" });
  private readonly tournaments = h("section.profile-tournaments");
  private readonly recent = h("section.profile-recent");
  private readonly abort = new AbortController();
  private readonly charts: uPlot[] = [];
  private shown: Profile | null = null;
  // The charts follow their box's width (a phone turned, a window resized) and are drawn
  // again in a new language (their axes are drawn, not text the page can relabel).
  private readonly resized = new ResizeObserver(() => this.fit());
  private readonly relabelled = new MutationObserver(() => this.drawCharts());

  constructor(
    private readonly playerId: string,
    name: string,
    private readonly actions: ProfileActions,
    private readonly readerId = "", // who reads it: their own games open in the replay
  ) {
    this.heading.append(name);
    this.root.append(
      h("header.lobby-head", this.heading, h("button.link#profile-back", { type: "button", onclick: () => actions.back() }, msg("common.back_to_lobby"))),
      this.body,
      this.recent,
      this.tournaments,
      h("button#profile-all-games", { type: "button", onclick: () => actions.games(playerId, name) }, msg("profile.all_games")),
    );
  }

  start(): void {
    this.relabelled.observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
    void this.load();
  }

  stop(): void {
    this.abort.abort();
    this.resized.disconnect();
    this.relabelled.disconnect();
    this.clearCharts();
  }

  private async load(): Promise<void> {
    const signal = this.abort.signal;
    try {
      const [profile, tournaments, history] = await Promise.all([
        arena.getProfile({ playerId: this.playerId }, { signal }),
        arena.getPlayerTournaments({ playerId: this.playerId }, { signal }),
        arena.getHistory({ playerId: this.playerId, limit: RECENT }, { signal }),
      ]);
      this.show(profile);
      if (!profile.guest || profile.deleted) {
        this.showRecent(history.entries);
        this.showTournaments(tournaments);
      }
    } catch (error) {
      if (!signal.aborted) setText(this.body, msg("profile.unavailable", { detail: explain(refusal(error)) }));
    }
  }

  /** The newest games, each the reader played in opening its replay. */
  private showRecent(entries: HistoryEntry[]): void {
    if (!entries.length) return;
    const line = (e: HistoryEntry) => {
      const when = new Date(Number(e.playedUnixMs));
      const result = e.verdict === Verdict.WIN ? "games.won" : e.verdict === Verdict.LOSS ? "games.lost" : e.verdict === Verdict.REFUND ? "games.refund" : "games.void_short";
      const words = msg("profile.recent_line", { date: () => dateText(when, { dateStyle: "medium" }), game: gameName(e.game), opponent: e.opponentDeleted ? msg("names.deleted") : e.opponentName, result: msg(result) });
      const reader = this.readerId && (this.readerId === this.playerId || this.readerId === e.opponentId);
      const replay = reader ? [" ", h("button.link.profile-replay", { type: "button", onclick: () => this.actions.replay(e.matchId) }, msg("games.replay"))] : [];
      return h("li", { dataset: { match: e.matchId } }, words, ...replay);
    };
    this.recent.replaceChildren(h("h3", msg("profile.recent")), h("ul.profile-recent-list", entries.map(line)));
  }

  /** How many tournaments they entered, and their best finishes, each opening its page. */
  private showTournaments(found: PlayerTournaments): void {
    const finishes = found.best.map((finish) => {
      const t = finish.tournament!;
      const words = msg("profile.finish", { rank: finish.rank, ranked: t.entrants, name: t.name, game: gameName(t.game), points: pointsText(finish.points) });
      return h("li", h("button.link.profile-tournament", { type: "button", onclick: () => this.actions.tournament(t.tournamentId) }, words));
    });
    const list = finishes.length ? [h("ol.profile-finishes", { "aria-label": msg("profile.best") }, finishes)] : [];
    this.tournaments.replaceChildren(h("h3", msg("profile.tournaments")), h("p.profile-entered", msg("profile.entered", { count: found.entered })), ...list);
  }

  private show(profile: Profile): void {
    if (profile.name || profile.deleted) this.heading.replaceChildren(h("span", playerNameShown(profile)));
    if (profile.guest && !profile.deleted) {
      this.body.replaceChildren(h("p.profile-note", msg("profile.guest")));
      return;
    }
    const barred = profile.barred ? [h("p.profile-barred#profile-barred", msg("profile.barred"))] : [];
    if (!profile.games.length) {
      this.body.replaceChildren(h("p.profile-note", msg("profile.none")));
      return;
    }
    this.body.replaceChildren(...barred, ...profile.games.map((game) => this.game(game)));
    this.shown = profile;
    this.drawCharts();
  }

  private drawCharts(): void {
    this.clearCharts();
    for (const game of this.shown?.games ?? []) this.chart(game);
  }

  private clearCharts(): void {
    for (const chart of this.charts.splice(0)) chart.destroy();
  }

  private fit(): void {
    for (const chart of this.charts) {
      const width = Math.max(MIN_WIDTH, chart.root.parentElement?.clientWidth ?? 0);
      if (width !== chart.width) chart.setSize({ width, height: CHART_HEIGHT });
    }
  }

  private game(game: GameProfile): HTMLElement {
    const rating = game.rated
      ? [
          h("p.profile-rating", msg("profile.rating", { rating: decimal(game.rating), rd: decimal(game.rd), rank: game.rank, ranked: game.ranked })),
          game.provisional ? h("p.profile-note", msg("profile.provisional")) : null,
        ]
      : [h("p.profile-rating", msg("profile.unrated"))];
    return h(
      "section.profile-game",
      { "data-game": String(game.game) },
      h("h3", gameName(game.game)),
      ...rating,
      h("p.profile-results", msg("profile.results", { wins: game.wins, losses: game.losses, voids: game.voids })),
      ...(game.spit ? spitFigures(game.spit) : []),
      this.chartHost(game),
    );
  }

  private chartHost(game: GameProfile): HTMLElement | null {
    const points = game.points;
    if (points.length < MIN_POINTS) return game.rated ? h("p.profile-note", msg("profile.chart_short")) : null;
    const first = decimal(points[0]!.rating);
    const last = decimal(points[points.length - 1]!.rating);
    const label = msg("profile.chart_label", { count: points.length, first, last });
    return h("div.profile-chart", { "data-chart": String(game.game), role: "img", "aria-label": label });
  }

  /** The rating after each rated game, a line over time (drawn once the host is laid out,
   * its axes in the language of that moment). */
  private chart(game: GameProfile): void {
    const host = this.body.querySelector<HTMLElement>(`.profile-chart[data-chart="${game.game}"]`);
    if (!host) return;
    const points = game.points;
    const when = points.map((p) => Number(p.playedUnixMs) / 1000);
    const ratings = points.map((p) => p.rating);
    // Days apart: the date; within a day: the time.
    const span = when[when.length - 1]! - when[0]!;
    const format: Intl.DateTimeFormatOptions = span > DAY_S ? { month: "short", day: "numeric" } : { hour: "numeric", minute: "2-digit" };
    const day = (seconds: number) => dateText(new Date(seconds * 1000), format);
    const options: uPlot.Options = {
      width: Math.max(MIN_WIDTH, host.clientWidth),
      height: CHART_HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      series: [{}, { label: t("profile.rating_series"), stroke: "#146b4d", width: 2, points: { show: points.length <= 30 } }],
      axes: [{ values: (_u, splits) => splits.map(day) }, { values: (_u, splits) => splits.map((v) => decimal(v)) }],
    };
    this.charts.push(new uPlot(options, [when, ratings], host));
    this.resized.observe(host);
  }
}
