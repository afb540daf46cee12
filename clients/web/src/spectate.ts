// A live match watched as a spectator: the public view only (seat -1 on the play socket:
// no hand, no hidden tile ever reaches the page), drawn by the games' own boards with every
// control taken away, and the number of people watching.
import { arena, explain, isTransportFailure, refusal } from "./api";
import { BidBoard } from "./bid";
import { countDown } from "./clock";
import { h } from "./dom";
import { decimal } from "./i18n/figures";
import { setText, toNode, type Live } from "./i18n/live";
import { msg, textOf, type Key, type Words } from "./i18n/messages";
import { Status, type MatchUpdate, type Race } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { Game, Gate } from "./gen/photofinish/game/v1/game_pb";
import { watchersText } from "./live";
import { gameName, outcomeText, voidReason, type Board, type MatchContext } from "./match";
import { playerName, versusShown } from "./names";
import type { Screen } from "./perspective";
import { ChangeMissed } from "./keptview";
import { PlaySocket } from "./play";
import { isTokenRefusal, tokens } from "./session";
import { SpitBoard } from "./spit";
import type { Session } from "./store";

export const SPECTATORS = -1;
const TICK_MS = 50;
const WATCHERS_REFRESH_MS = 3000;
const RETRY_PAUSE_MS = 1000;
const UPDATES_KEPT = 5000; // every update this page received, for the page's test hook

// What a spectator must not be offered: the boards' commands (any left is disabled too).
const COMMANDS = ".controls button, .controls .waiting, .actions button, .actions .waiting, .auction-buttons, .bid-form, .keys-help, .stock-key";

// What the players are waiting for, in the words of a spectator (the boards' own say "you").
const GATES: Partial<Record<Gate, Key>> = {
  [Gate.START]: "spectate.gate.start",
  [Gate.CONTINUE]: "spectate.gate.continue",
  [Gate.SPIT]: "spectate.gate.spit",
  [Gate.HANDOVER]: "spectate.gate.handover",
};

export class SpectatorView {
  readonly root = h("section.match.spectate");
  readonly received: MatchUpdate[] = [];
  private readonly abort = new AbortController();
  private readonly title = h("h2", msg("spectate.watching"));
  private readonly terms = h("span.match-terms");
  private readonly watchers = h("span.watchers#watchers", { "aria-live": "polite" }, "");
  private readonly notices = h("div.notices", { role: "status", "aria-live": "polite" });
  private readonly gateLine = h("p.spectator-status");
  private readonly endHost = h("div.end-host");
  private readonly boardHost = h("div.board-host");
  private board: Board | null = null;
  private receivedAt = 0;
  private ticker = 0;
  private counter = 0;
  private socket: PlaySocket | null = null;

  constructor(
    private readonly matchId: string,
    private readonly session: Session,
    private readonly onLeave: () => void,
  ) {
    this.root.append(
      h("button.link#spectate-back", { type: "button", onclick: () => onLeave() }, msg("spectate.back")),
      h("header.match-head", this.title, this.terms, this.watchers),
      h("p.spectator-note", msg("spectate.note")),
      this.notices,
      this.endHost,
      this.gateLine,
      this.boardHost,
    );
  }

  start(): void {
    void this.follow();
    void this.countWatchers();
    this.counter = window.setInterval(() => void this.countWatchers(), WATCHERS_REFRESH_MS);
    this.ticker = window.setInterval(() => this.tick(), TICK_MS);
  }

  stop(): void {
    this.abort.abort();
    this.socket?.close();
    window.clearInterval(this.counter);
    window.clearInterval(this.ticker);
  }

  last(): { update: MatchUpdate | null; receivedAt: number } {
    return { update: this.received.at(-1) ?? null, receivedAt: this.receivedAt };
  }

  private async follow(): Promise<void> {
    let failures = 0;
    while (!this.abort.signal.aborted) {
      const token = await tokens.bearer();
      const socket = (this.socket = new PlaySocket(token, this.matchId, SPECTATORS));
      try {
        for await (const update of socket.updates()) {
          failures = 0;
          this.take(update);
          if (update.status !== Status.LIVE) return;
        }
        return;
      } catch (error) {
        if (this.abort.signal.aborted) return;
        if (error instanceof ChangeMissed) continue; // another socket at once: its first update is whole
        const why = refusal(error);
        if (isTokenRefusal(why)) {
          if (await tokens.renew(token)) continue; // a new token: open again at once
          if (!tokens.current()) return; // the session is over: the page is back at sign-in
        } else if (!isTransportFailure(error) && why.reason) return this.say(msg("spectate.cannot_watch", { detail: explain(why) }));
        failures += 1;
        this.say(msg("spectate.reconnecting"));
      } finally {
        socket.close();
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(5, failures) * RETRY_PAUSE_MS));
    }
  }

  private take(update: MatchUpdate): void {
    this.received.push(update);
    if (this.received.length > UPDATES_KEPT) this.received.shift();
    this.receivedAt = performance.now();
    const names = update.players.map((p) => playerName(p));
    if (!this.board) this.begin(update, names);
    // Spit is drawn from seat 0's side of the table; Bid with no hand at all.
    const screen: Screen = { kind: "board", update, viewer: update.game === Game.SPIT ? 0 : SPECTATORS, showHand: false };
    const node = this.board!.render(screen);
    disarm(node);
    this.boardHost.replaceChildren(node);
    const gate = update.status === Status.LIVE ? GATES[update.decision?.gate ?? Gate.NONE] : undefined;
    setText(this.gateLine, gate ? msg(gate) : "");
    this.tick();
    if (update.race) this.sayRace(update.race, names);
    if (update.status !== Status.LIVE) this.showEnd(update, names);
  }

  private begin(update: MatchUpdate, names: Words[]): void {
    this.title.replaceChildren(...versusShown(update.players).map(toNode));
    setText(this.terms, msg("match.terms", { game: gameName(update.game), terms: update.rated ? msg("terms.rated") : msg("terms.casual") }));
    const ctx: MatchContext = {
      match: { matchId: this.matchId, game: update.game, seats: [], rated: update.rated, names: names.map(textOf) },
      session: this.session,
      send: () => Promise.resolve(false), // a spectator sends nothing
      say: (text) => this.say(text),
    };
    this.board = update.game === Game.SPIT ? new SpitBoard(ctx) : new BidBoard(ctx);
  }

  /** Redraw the running clock face from the last update and the time since it arrived. */
  private tick(): void {
    const update = this.received.at(-1);
    if (!update?.clock?.enabled || update.status !== Status.LIVE) return;
    const times = countDown(update.clock, performance.now() - this.receivedAt);
    for (const face of this.boardHost.querySelectorAll<HTMLElement>("[data-clock-seat]")) {
      const seat = Number(face.dataset.clockSeat);
      const time = times[seat];
      if (time) face.dispatchEvent(new CustomEvent("clock", { detail: { time, running: update.clock.running === seat } }));
    }
  }

  private async countWatchers(): Promise<void> {
    try {
      const reply = await arena.listLiveMatches({ matchId: this.matchId }, { signal: this.abort.signal });
      const shown = reply.matches[0];
      if (shown) setText(this.watchers, watchersText(shown.watchers));
      else window.clearInterval(this.counter); // over: the last count stays
    } catch {
      // the next refresh tries again
    }
  }

  private sayRace(race: Race, names: Words[]): void {
    const ms = Number(race.gapUs) / 1000;
    const gap = msg("time.ms", { ms: () => decimal(ms, ms >= 10 ? 0 : 1) });
    const winner = msg("race.their_card", { name: names[race.landedSeat] ?? "?", card: race.landedCard });
    const loser = msg("race.their_card", { name: names[race.refusedSeat] ?? "?", card: race.refusedCard || msg("race.a_card") });
    this.say(msg("race.beat_to_pile", { winner, loser, pile: race.pile + 1, gap }));
  }

  private say(text: Live): void {
    this.notices.replaceChildren(h("div.notice-line", h("p.notice.info", text)));
  }

  private showEnd(last: MatchUpdate, names: Words[]): void {
    window.clearInterval(this.ticker);
    const winner = last.outcome?.winner ?? -1;
    const parts =
      last.status === Status.VOIDED
        ? [h("h3", msg("end.void")), h("p.void-reason", voidReason(last.voidReason, last.voidKind))]
        : [h("h3", msg("spectate.over")), h("p.outcome", outcomeText(names[winner] ?? "?", last.outcome?.termination))];
    const back = h("button#leave", { type: "button", onclick: () => this.onLeave() }, msg("spectate.back_to_live"));
    this.endHost.replaceChildren(h("div.end-panel", parts, back));
  }
}

/** Take every command away from a board drawn for a spectator: remove them, disable the rest. */
function disarm(node: HTMLElement): void {
  for (const element of node.querySelectorAll(COMMANDS)) element.remove();
  for (const element of node.querySelectorAll<HTMLButtonElement>("button, input, select, textarea")) element.disabled = true;
  for (const element of node.querySelectorAll<HTMLElement>("[tabindex]")) element.tabIndex = -1;
}
