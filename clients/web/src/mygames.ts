// My games: a player's finished matches, newest first, a page at a time (the ratings
// service's history of every game): game, opponent, result or void with its reason, the
// rating change, the date; each of the reader's own matches opens in the replay viewer.
import { arena, explain, refusal } from "./api";
import { myGames, save } from "./download";
import { h } from "./dom";
import { Verdict, type HistoryEntry } from "./gen/photofinish/ratings/v1/ratings_pb";
import { gameName } from "./match";
import { playerNameShown } from "./names";
import { replayHash } from "./replay";
import type { Session } from "./store";

const PAGE_SIZE = 10;

export interface GamesActions {
  back(): void;
  replay(matchId: string): void;
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
      h("header.lobby-head", h("h2", mine ? "My games" : `${name}'s games`), h("button.link#games-back", { type: "button", onclick: () => actions.back() }, "← Lobby")),
      h("p.games-note", mine ? "" : "Only the players of a match may replay it."),
      this.table,
      this.pager,
    );
    if (mine) this.root.append(this.download());
  }

  /** Download my games: every match's log in one JSON file. */
  private download(): HTMLElement {
    const status = h("p.download-status#download-status", { role: "status" });
    const button = h("button#download-games", { type: "button" }, "Download my games") as HTMLButtonElement;
    button.onclick = async () => {
      button.disabled = true;
      try {
        const content = await myGames(this.session, (done, total) => (status.textContent = `Gathering ${done} of ${total} games…`), this.abort.signal);
        const day = new Date().toISOString().slice(0, 10);
        save(content, `photofinish-games-${this.session.name}-${day}.json`);
        const count = (content as { matches: unknown[] }).matches.length;
        status.textContent = `Saved ${count} ${count === 1 ? "game" : "games"}, each with its whole log (JSON).`;
      } catch (error) {
        if (!this.abort.signal.aborted) status.textContent = `The games could not be gathered: ${explain(refusal(error))}`;
      } finally {
        button.disabled = false;
      }
    };
    return h("section.download", h("p.hint", "Every finished game of yours, each with its whole log (every command and its arrival stamp), in one file."), button, status);
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
      if (!this.abort.signal.aborted) this.table.replaceChildren(h("p", `Games are not available right now: ${explain(refusal(error))}`));
    }
  }

  private render(entries: HistoryEntry[], more: boolean): void {
    const rows = entries.map((e) => this.row(e));
    this.table.replaceChildren(
      rows.length
        ? h("table.games-list", h("thead", h("tr", h("th", "Date"), h("th", "Game"), h("th", "Opponent"), h("th", "Result"), h("th", "Rating"), h("th", ""))), h("tbody", rows))
        : h("p.games-empty", this.offset ? "No older games." : "No finished games yet."),
    );
    const newer = h("button#games-newer", { type: "button", disabled: this.offset === 0, onclick: () => void this.show(Math.max(0, this.offset - PAGE_SIZE)) }, "← Newer");
    const older = h("button#games-older", { type: "button", disabled: !more, onclick: () => void this.show(this.offset + PAGE_SIZE) }, "Older →");
    this.pager.replaceChildren(newer, h("span", ` ${this.offset + 1}–${this.offset + entries.length} `), older);
  }

  private row(e: HistoryEntry): HTMLElement {
    const when = new Date(Number(e.playedUnixMs));
    const canReplay = this.playerId === this.session.playerId || e.opponentId === this.session.playerId;
    return h(
      "tr",
      { dataset: { match: e.matchId } },
      h("td", h("time", { datetime: when.toISOString() }, when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }))),
      h("td", gameName(e.game)),
      h("td", opponentShown(e)),
      h("td.result", resultText(e)),
      h("td.change", e.uncountedReason ? { title: e.uncountedReason } : {}, changeText(e)),
      h("td", canReplay ? h("a.replay-open", { href: replayHash(e.matchId, 0), onclick: (event: Event) => (event.preventDefault(), this.actions.replay(e.matchId)) }, "Replay") : null),
    );
  }
}

/** The opponent, marked a guest, with a short tag of their id; a deleted account's, untagged. */
function opponentShown(e: HistoryEntry): (string | HTMLElement)[] {
  const shown = playerNameShown({ name: e.opponentName, guest: e.opponentGuest, deleted: e.opponentDeleted });
  return e.opponentDeleted ? shown : [...shown, h("span.tag", ` #${e.opponentId.slice(-4)}`)];
}

function resultText(e: HistoryEntry): string {
  if (e.verdict === Verdict.VOID) return `Void: ${e.voidReason || "no reason given"}`;
  return e.verdict === Verdict.WIN ? "Won" : e.verdict === Verdict.LOSS ? "Lost" : "?";
}

function changeText(e: HistoryEntry): string {
  if (!e.rated) return e.uncountedReason ? "not counted" : "unrated";
  const sign = e.change >= 0 ? "+" : "−";
  return `${sign}${Math.abs(e.change).toFixed(1)} → ${e.ratingAfter.toFixed(0)}`;
}
