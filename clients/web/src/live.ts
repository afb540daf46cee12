// The matches in play, per game with tournament games first (ListLiveMatches), each with
// its count of spectators and a Watch button; and a tournament's own live games.
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { setText } from "./i18n/live";
import { msg, type Message } from "./i18n/messages";
import type { LiveMatchShown } from "./gen/photofinish/client/v1/arena_pb";
import { Mode } from "./gen/photofinish/events/v1/events_pb";
import { Game } from "./gen/photofinish/game/v1/game_pb";
import { GameStatus, type TournamentGame } from "./gen/photofinish/tournaments/v1/tournaments_pb";
import { gameName } from "./match";
import { versusShown, versusText, type Named } from "./names";

const REFRESH_MS = 3000;
const GAMES = [Game.SPIT, Game.BID];

export interface LiveActions {
  watch(matchId: string): void;
  back(): void;
}

/** "2 watching", "nobody watching yet". */
export function watchersText(count: number): Message {
  return msg("live.watchers", { count: Math.max(0, count) });
}

function modeText(shown: LiveMatchShown): Message | string {
  const match = shown.match;
  if (!match) return "";
  if (match.tournamentName) return msg("live.mode.tournament", { name: match.tournamentName });
  if (match.mode === Mode.COMPUTER) return msg("live.mode.computer");
  if (match.mode === Mode.HOTSEAT) return msg("live.mode.hot_seat");
  return match.rated ? msg("terms.rated") : msg("terms.casual");
}

export class LivePage {
  readonly root = h("section.live-page");
  private readonly lists = h("div.live-lists");
  private readonly status = h("p.lobby-status", { role: "status", "aria-live": "polite" });
  private timer = 0;

  constructor(private readonly actions: LiveActions) {
    this.root.append(
      h("button.link#live-back", { type: "button", onclick: () => actions.back() }, msg("common.back_to_lobby")),
      h("h2", msg("live.title")),
      h("p.meta", msg("live.hint")),
      this.status,
      this.lists,
    );
  }

  start(): void {
    void this.refresh();
    this.timer = window.setInterval(() => void this.refresh(), REFRESH_MS);
  }

  stop(): void {
    window.clearInterval(this.timer);
  }

  private async refresh(): Promise<void> {
    try {
      const reply = await arena.listLiveMatches({});
      this.status.replaceChildren();
      this.lists.replaceChildren(...GAMES.map((game) => this.gameList(game, reply.matches.filter((m) => m.match?.game === game))));
    } catch (error) {
      setText(this.status, msg("live.unavailable", { detail: explain(refusal(error)) }));
    }
  }

  private gameList(game: Game, matches: LiveMatchShown[]): HTMLElement {
    return h(
      "section.live-game",
      { "data-game": String(game) },
      h("h3", gameName(game)),
      matches.length ? h("ul.live-list", matches.map((m) => this.row(m))) : h("p.none", msg("live.none")),
    );
  }

  private row(shown: LiveMatchShown): HTMLElement {
    const match = shown.match!;
    const names = versusText(match.players);
    return h(
      `li.live-match${match.tournamentId ? ".tournament" : ""}`,
      { "data-match": match.matchId },
      h("div.live-names", h("b", versusShown(match.players)), h("span.live-terms", modeText(shown))),
      h("span.watchers", watchersText(shown.watchers)),
      h("button.primary.watch", { type: "button", "aria-label": msg("live.watch_label", { players: names }), onclick: () => this.actions.watch(match.matchId) }, msg("live.watch")),
    );
  }
}

/** A tournament's games in play, each with a Watch button (null when none is). */
export function liveGames(games: TournamentGame[], entrants: Map<string, Named>, watch: (matchId: string) => void): HTMLElement | null {
  const live = games.filter((g) => g.status === GameStatus.PLAYING);
  if (!live.length) return null;
  return h(
    "section.tournament-live",
    h("h3", msg("live.games")),
    h(
      "ul.live-list",
      live.map((g) => {
        const players = g.playerIds.map((id) => entrants.get(id));
        return h(
          "li.live-match",
          { "data-match": g.matchId },
          h("div.live-names", h("b", versusShown(players))),
          h("button.watch", { type: "button", "aria-label": msg("live.watch_label", { players: versusText(players) }), onclick: () => watch(g.matchId) }, msg("live.watch")),
        );
      }),
    ),
  );
}
