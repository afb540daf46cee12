// The replay viewer: a finished match step by step, from the server's replay of its
// arbitration log (Arena/GetReplay): buttons, ←/→ keys and a slider; each step's board,
// what happened and when by the server's stamps; a link to the step (#replay/<match>/<n>).
import { arena, explain, refusal } from "./api";
import { h } from "./dom";
import { setText } from "./i18n/live";
import { msg, type Key, type Words } from "./i18n/messages";
import type { ReplayStep } from "./gen/photofinish/arbitration/v1/replay_pb";
import type { PlayReaction } from "./gen/photofinish/ratings/v1/ratings_pb";
import { decimal } from "./i18n/figures";
import type { View } from "./gen/photofinish/game/v1/game_pb";
import { gameName } from "./match";
import { playerName } from "./names";
import { replayBoard } from "./replayboard";
import { decisionPanel, entryDetails, racePanel, stepTitle } from "./replaysteps";
import type { Session } from "./store";

export interface ReplayActions {
  back(): void;
  /** The step shown now, for the page's address. */
  shown(matchId: string, step: number): void;
}

/** The address of a step of a match's replay. */
export function replayHash(matchId: string, step: number): string {
  return `#replay/${encodeURIComponent(matchId)}/${step}`;
}

export class ReplayPage {
  readonly root = h("section.replay");
  private steps: ReplayStep[] = [];
  private boards: View[][] = []; // by step: the views in force (a step that changed nothing keeps the last)
  private names: Words[] = [];
  private at = 0;
  private readonly slider = h("input#replay-slider", { type: "range", min: "0", max: "0", value: "0", "aria-label": msg("replay.step_label") }) as HTMLInputElement;
  private readonly counter = h("span.replay-counter#replay-counter", { "aria-live": "polite" });
  private readonly facts = h("div.replay-facts#replay-facts");
  private readonly board = h("div.replay-board-host");
  private readonly status = h("p.replay-status", { role: "status" }, msg("replay.loading"));
  private diverged = false; // the status says where the engines part from the log
  private reactions = new Map<number, PlayReaction>(); // by log entry: an operator's view
  private readonly onKey = (event: KeyboardEvent) => this.key(event);
  private readonly abort = new AbortController();

  constructor(
    private readonly matchId: string,
    private readonly session: Session,
    private readonly actions: ReplayActions,
    private readonly firstShown = 0,
    private readonly backLabel: Key = "replay.back", // where Back goes: My games unless told
  ) {
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.root.append(h("header.replay-head", h("button.link#replay-back", { type: "button", onclick: () => actions.back() }, msg(this.backLabel)), h("h2", msg("games.replay"))), this.status);
  }

  async start(): Promise<void> {
    document.addEventListener("keydown", this.onKey);
    try {
      await this.load();
    } catch (error) {
      if (!this.abort.signal.aborted) setText(this.status, msg("replay.unavailable", { detail: explain(refusal(error)) }));
      return;
    }
    this.layout();
    this.go(Math.min(this.firstShown, this.steps.length - 1));
  }

  stop(): void {
    this.abort.abort();
    document.removeEventListener("keydown", this.onKey);
  }

  /** For the browser tests: the step shown and its board's views as the server sent them. */
  shownStep(): { step: number; total: number; views: View[] } {
    return { step: this.at, total: this.steps.length, views: this.boards[this.at] ?? [] };
  }

  private async load(): Promise<void> {
    let total = 1;
    while (this.steps.length < total) {
      const page = await arena.getReplay({ matchId: this.matchId, firstStep: this.steps.length }, { signal: this.abort.signal });
      total = page.totalSteps;
      if (!page.steps.length) break;
      for (const step of page.steps) {
        this.boards.push(step.views.length ? step.views : (this.boards.at(-1) ?? []));
        this.steps.push(step);
      }
      if (page.divergence) {
        setText(this.status, msg("replay.diverged", { step: page.divergedAt, detail: page.divergence }));
        this.diverged = true;
        break;
      }
    }
    const header = this.steps[0]?.entry;
    this.names = (header?.created?.players ?? []).map((p) => playerName(p));
    if (this.session.operator) {
      // Each measured play's reaction (rated Spit only): an operator weighing a flag.
      const measured = await arena.getMatchReactions({ matchId: this.matchId }, { signal: this.abort.signal }).catch(() => null);
      for (const play of measured?.plays ?? []) this.reactions.set(play.entryIndex, play);
    }
  }

  private layout(): void {
    const created = this.steps[0]?.entry?.created;
    const seated = this.names.map((name, seat) => msg("replay.seated", { name, number: seat + 1 }));
    const players = seated.slice(1).reduce<Words>((shown, next) => msg("replay.versus", { first: shown, second: next }), seated[0] ?? "");
    if (!this.diverged) this.status.textContent = "";
    this.slider.max = String(this.steps.length - 1);
    const button = (id: string, label: Words, text: string, to: () => number) => h(`button#${id}`, { type: "button", "aria-label": label, onclick: () => this.go(to()) }, text);
    const copy = h("button#replay-link", { type: "button", onclick: () => void this.copyLink(copy) }, msg("replay.copy_link"));
    this.root.append(
      h("p.replay-match", msg("replay.match", { game: gameName(created?.game ?? 0), players })),
      h(
        "div.replay-controls",
        button("replay-first", msg("replay.first"), "«", () => 0),
        button("replay-prev", msg("replay.previous"), "◀", () => this.at - 1),
        this.slider,
        button("replay-next", msg("replay.next"), "▶", () => this.at + 1),
        button("replay-last", msg("replay.last"), "»", () => this.steps.length - 1),
        this.counter,
      ),
      h("p.keys-help", msg("replay.keys")),
      this.facts,
      this.board,
      copy,
    );
  }

  private go(step: number): void {
    if (!this.steps.length) return;
    this.at = Math.max(0, Math.min(this.steps.length - 1, step));
    const shown = this.steps[this.at];
    const entry = shown?.entry;
    this.slider.value = String(this.at);
    setText(this.counter, msg("replay.counter", { step: this.at, last: this.steps.length - 1 }));
    const parts = [
      h("p.step-title#replay-title", entry ? stepTitle(entry, this.names) : ""),
      entry?.race ? racePanel(entry.race, this.names) : null,
      shown?.decisionTime ? decisionPanel(shown.decisionTime, this.names) : null,
      this.reactionLine(entry?.index),
      ...(entry ? entryDetails(entry) : []).map((line) => h("p.step-detail", line)),
    ];
    this.facts.replaceChildren(...parts.filter((part) => part !== null));
    this.facts.classList.toggle("fault", entry?.fault !== undefined || Boolean(entry?.voidReason));
    const mine = (this.steps[0]?.entry?.created?.players ?? []).findIndex((p) => p.playerId === this.session.playerId);
    this.board.replaceChildren(replayBoard(this.boards[this.at] ?? [], entry, this.names, Math.max(0, mine)));
    this.actions.shown(this.matchId, this.at);
  }

  private reactionLine(index: bigint | number | undefined): HTMLElement | null {
    const play = index === undefined ? undefined : this.reactions.get(Number(index));
    if (!play) return null;
    const kind = msg(play.chain ? "replay.reaction_chain" : "replay.reaction_answer");
    return h("p.step-reaction#replay-reaction", msg("replay.reaction", { ms: () => decimal(play.ms), kind }));
  }

  private key(event: KeyboardEvent): void {
    if (event.target === this.slider || event.altKey || event.ctrlKey || event.metaKey) return; // the slider moves itself
    const to = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.steps.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
  }

  private async copyLink(button: HTMLElement): Promise<void> {
    const url = `${location.origin}${location.pathname}${replayHash(this.matchId, this.at)}`;
    try {
      await navigator.clipboard.writeText(url);
      setText(button, msg("replay.copied"));
    } catch {
      button.textContent = url;
    }
  }
}
