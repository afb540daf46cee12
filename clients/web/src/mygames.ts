// My games: a player's finished matches, newest first, a page at a time (the ratings
// service's history of every game): game, opponent, result or void with its reason, the
// rating change, the date; each of the reader's own matches opens in the replay viewer.
import { arena, explain, refusal } from "./api";
import { myGames, save } from "./download";
import { h } from "./dom";
import { dateText, decimal } from "./i18n/figures";
import { setText } from "./i18n/live";
import { msg, type Message, type Words } from "./i18n/messages";
import { Verdict, type HistoryEntry } from "./gen/photofinish/ratings/v1/ratings_pb";
import { gameName } from "./match";
import { profileLinked } from "./names";
import { replayHash } from "./replay";
import type { Session } from "./store";
import { voidWords } from "./voids";

const PAGE_SIZE = 10;

export interface GamesActions {
  back(): void;
  replay(matchId: string): void;
  profile(playerId: string, name: string): void; // an opponent's
}

export class GamesPage {
  readonly root = h("section.my-games");
  private readonly table = h("div.games-table");
  private readonly pager = h("div.games-pager");
  private offset = 0;
  private readonly abort = new AbortController();

  constructor(
    private readonly session: Session,
    private readonly playerId: string,
    name: string,
    private readonly actions: GamesActions,
  ) {
    const mine = playerId === session.playerId;
    this.root.append(
      h("header.lobby-head", h("h2", mine ? msg("games.mine") : msg("games.players", { name })), h("button.link#games-back", { type: "button", onclick: () => actions.back() }, msg("common.back_to_lobby"))),
      h("p.games-note", mine ? "" : msg("games.players_only")),
      this.table,
      this.pager,
    );
    if (mine) this.root.append(this.download());
  }

  /** Download my games: every match's log in one JSON file. */
  private download(): HTMLElement {
    const status = h("p.download-status#download-status", { role: "status" });
    const button = h("button#download-games", { type: "button" }, msg("games.download")) as HTMLButtonElement;
    button.onclick = async () => {
      button.disabled = true;
      try {
        const content = await myGames(this.session, (done, total) => setText(status, msg("games.gathering", { done, total })), this.abort.signal);
        const day = new Date().toISOString().slice(0, 10);
        save(content, `photofinish-games-${this.session.name}-${day}.json`);
        const count = (content as { matches: unknown[] }).matches.length;
        setText(status, msg("games.saved", { count }));
      } catch (error) {
        if (!this.abort.signal.aborted) setText(status, msg("games.not_gathered", { detail: explain(refusal(error)) }));
      } finally {
        button.disabled = false;
      }
    };
    return h("section.download", h("p.hint", msg("games.download_hint")), button, status);
  }

  start(): void {
    void this.show(0);
  }

  stop(): void {
    this.abort.abort();
  }

  private async show(offset: number): Promise<void> {
    try {
      const history = await arena.getHistory({ playerId: this.playerId, limit: PAGE_SIZE, offset }, { signal: this.abort.signal });
      this.offset = offset;
      this.render(history.entries, history.more);
    } catch (error) {
      if (!this.abort.signal.aborted) this.table.replaceChildren(h("p", msg("games.unavailable", { detail: explain(refusal(error)) })));
    }
  }

  private render(entries: HistoryEntry[], more: boolean): void {
    const rows = entries.map((e) => this.row(e));
    this.table.replaceChildren(
      rows.length
        ? h("table.games-list", h("thead", h("tr", h("th", msg("table.date")), h("th", msg("table.game")), h("th", msg("table.opponent")), h("th", msg("table.result")), h("th", msg("table.rating")), h("th", ""))), h("tbody", rows))
        : h("p.games-empty", this.offset ? msg("games.no_older") : msg("games.none")),
    );
    const newer = h("button#games-newer", { type: "button", disabled: this.offset === 0, onclick: () => void this.show(Math.max(0, this.offset - PAGE_SIZE)) }, msg("games.newer"));
    const older = h("button#games-older", { type: "button", disabled: !more, onclick: () => void this.show(this.offset + PAGE_SIZE) }, msg("games.older"));
    this.pager.replaceChildren(newer, h("span", " ", msg("games.range", { first: this.offset + 1, last: this.offset + entries.length }), " "), older);
  }

  private row(e: HistoryEntry): HTMLElement {
    const when = new Date(Number(e.playedUnixMs));
    const canReplay = this.playerId === this.session.playerId || e.opponentId === this.session.playerId;
    return h(
      "tr",
      { dataset: { match: e.matchId } },
      h("td", h("time", { datetime: when.toISOString() }, () => dateText(when, { dateStyle: "medium", timeStyle: "short" }))),
      h("td", gameName(e.game)),
      h("td", this.opponentShown(e)),
      h("td.result", resultText(e)),
      h("td.change", e.uncountedReason ? { title: e.uncountedReason } : {}, changeText(e)),
      h("td", canReplay ? h("a.replay-open", { href: replayHash(e.matchId, 0), onclick: (event: Event) => (event.preventDefault(), this.actions.replay(e.matchId)) }, msg("games.replay")) : null),
    );
  }

  /** The opponent, marked a guest, with a short tag of their id, an account's a link to
   * its profile; a deleted account's, untagged. */
  private opponentShown(e: HistoryEntry): (Words | HTMLElement)[] {
    const who = { playerId: e.opponentId, name: e.opponentName, guest: e.opponentGuest, deleted: e.opponentDeleted };
    const shown = profileLinked(who, (id, name) => this.actions.profile(id, name));
    return e.opponentDeleted ? shown : [...shown, h("span.tag", ` #${e.opponentId.slice(-4)}`)];
  }
}

function resultText(e: HistoryEntry): Message | string {
  if (e.verdict === Verdict.VOID) return msg("games.void", { reason: e.voidReason ? voidWords(e.voidReason) : msg("games.no_reason") });
  if (e.verdict === Verdict.REFUND) return msg("games.refund");
  return e.verdict === Verdict.WIN ? msg("games.won") : e.verdict === Verdict.LOSS ? msg("games.lost") : "?";
}

function changeText(e: HistoryEntry): Message {
  if (!e.rated) return e.uncountedReason ? msg("games.not_counted") : msg("games.unrated");
  const change = () => decimal(Math.abs(e.change), 1);
  return msg(e.change >= 0 ? "games.change_up" : "games.change_down", { change, after: () => decimal(e.ratingAfter) });
}
