// One match in the page: follow every seat held on its play socket, choose what to show,
// send commands.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { arena, explain, isTransportFailure, nextClientSeq, refusal, submit, type Refusal } from "./api";
import { countDown, type SeatTime } from "./clock";
import { h } from "./dom";
import { decimal } from "./i18n/figures";
import { setText, toNode, type Live } from "./i18n/live";
import { currentLanguage, msg, textOf, type Key, type Message, type Words } from "./i18n/messages";
import { Status, type ClockView, type MatchUpdate, type Race } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { Game, Termination, type CommandSchema } from "./gen/photofinish/game/v1/game_pb";
import { Mode, type Player } from "./gen/photofinish/events/v1/events_pb";
import type { MatchAssignment } from "./gen/photofinish/matchmaking/v1/matchmaking_pb";
import type { HistoryEntry } from "./gen/photofinish/ratings/v1/ratings_pb";
import { playerName, versusLinked, versusShown, versusText } from "./names";
import { choose, newest, type Screen } from "./perspective";
import { ChangeMissed } from "./keptview";
import { PlaySocket, SocketClosed } from "./play";
import { reportPanel } from "./report";
import { isTokenRefusal, tokens } from "./session";
import type { CurrentMatch, Session } from "./store";
import { voidWords } from "./voids";

export type Command = MessageInitShape<typeof CommandSchema>;

/** What a game's board needs from the match around it. */
export interface MatchContext {
  readonly match: CurrentMatch;
  readonly session: Session;
  send(seat: number, command: Command): Promise<boolean>;
  say(text: Live, tone?: "info" | "refusal" | "race"): void;
}

/** A game's board: drawn anew from each screen; keys come while it is shown. */
export interface Board {
  render(screen: Screen): HTMLElement;
  key(event: KeyboardEvent): boolean;
  /** The refusal of one of the board's commands in the game's words (undefined: the server's). */
  refusalText?(why: Refusal): Words | undefined;
}

/** What a notice tells of a lost race: the update's Race, or a refusal's metadata. */
type RaceFacts = Pick<Race, "pile" | "landedCard" | "landedSeat" | "refusedCard" | "refusedSeat" | "gapUs">;

const RETRY_PAUSE_MS = 1000;
const TICK_MS = 50;
const NOTICES_KEPT = 3; // the newest is shown; the older wait beneath it, for screen readers
const RACES_REMEMBERED = 8; // a race is told once, though the refusal and each seat's update tell it

/** How a match ended, in the words of its end panel (the spectator's too). */
export const TERMINATIONS: Record<number, Key> = {
  [Termination.CHIPS]: "end.how.chips",
  [Termination.CARDS]: "end.how.cards",
  [Termination.TIME]: "end.how.time",
  [Termination.RESIGN]: "end.how.resign",
  [Termination.ABANDONED]: "end.how.abandoned",
};

/** A void explained by its kind (the update's voidKind); any other keeps the generic words. */
const VOIDS: Record<string, { title: Key; text: Key }> = {
  // Against the computer or on one device, nobody there for the server's limit (PF_ABANDONED_S).
  abandoned: { title: "end.void.abandoned", text: "end.void.abandoned_text" },
};

export class MatchView {
  readonly root = h("section.match");
  private readonly latest = new Map<number, MatchUpdate>();
  private receivedAt = 0;
  private readonly abort = new AbortController();
  private readonly sockets = new Map<number, PlaySocket>(); // each seat's, while it is open
  private readonly boardHost = h("div.board-host");
  private readonly notices = h("div.notices", { role: "status", "aria-live": "polite" });
  private readonly racesTold: string[] = [];
  private readonly endHost = h("div.end-host");
  private readonly title: HTMLElement;
  private players: Player[] = []; // the newest update's: marked guests, from the server
  private awayNotice: HTMLElement | null = null; // while the opponent is away: claim or abort
  private board: Board;
  private shown: Screen | null = null;
  private ticker = 0;
  private ended = false;

  constructor(
    private readonly ctx: MatchContext,
    makeBoard: (ctx: MatchContext) => Board,
    private readonly onLeave: () => void,
    private readonly onNext: (assignment: MatchAssignment) => void = () => undefined,
    private readonly onProfile: (playerId: string, name: string) => void = () => undefined,
  ) {
    this.board = makeBoard(ctx);
    this.title = h("h2", versusText(ctx.match.names.map((name) => ({ name })))); // the assignment's, until an update's players
    const { game, rated, tournamentId, matchId } = ctx.match;
    const terms = msg(tournamentId ? "match.terms_tournament" : "match.terms", { game: gameName(game), terms: rated ? msg("terms.rated") : msg("terms.casual") });
    this.root.append(
      h(
        "header.match-head",
        this.title,
        h("span.match-terms", { title: msg("match.id", { id: matchId }) }, terms),
      ),
      this.notices,
      this.endHost, // above the board: on a phone the result and what next need no scroll
      this.boardHost,
    );
  }

  start(): void {
    for (const seat of this.ctx.match.seats) void this.watch(seat);
    this.ticker = window.setInterval(() => this.tick(), TICK_MS);
    document.addEventListener("keydown", this.onKey);
  }

  stop(): void {
    this.abort.abort();
    for (const socket of this.sockets.values()) socket.close();
    window.clearInterval(this.ticker);
    document.removeEventListener("keydown", this.onKey);
  }

  /** The latest update received, and when: for the page's test hook. */
  last(): { update: MatchUpdate | null; receivedAt: number } {
    return { update: this.latest.size ? newest(this.latest) : null, receivedAt: this.receivedAt };
  }

  /** Each seat's time as displayed now (the figures the clock faces are drawn from). */
  displayed(): SeatTime[] {
    const { update } = this.last();
    return update ? countDown(update.clock, performance.now() - this.receivedAt) : [];
  }

  /** Ask the server for the clock now (a fresh Watch's first message) and read the display. */
  async probe(): Promise<{ server: ClockView | undefined; displayed: SeatTime[] }> {
    const controller = new AbortController();
    const seat = this.ctx.match.seats[0];
    const stream = arena.watch({ matchId: this.ctx.match.matchId, seat }, { signal: controller.signal });
    for await (const update of stream) {
      const displayed = this.displayed();
      controller.abort();
      return { server: update.clock, displayed };
    }
    throw new Error("the watch ended without an update");
  }

  /** Send one command for `seat`, reporting a refusal in the match's notices. */
  async send(seat: number, command: Command): Promise<boolean> {
    try {
      await this.submit(seat, command);
      return true;
    } catch (error) {
      this.sayRefused(error, seat);
      return false;
    }
  }

  /**
   * On the seat's socket while it is open; otherwise, or when it closes before the
   * answer, over gRPC-web with the same client_seq (answered once, never applied twice).
   */
  private async submit(seat: number, command: Command): Promise<void> {
    const { matchId } = this.ctx.match;
    const clientSeq = nextClientSeq(matchId, seat);
    const socket = this.sockets.get(seat);
    if (socket?.isOpen) {
      try {
        await socket.submit(clientSeq, command);
        return;
      } catch (error) {
        if (!(error instanceof SocketClosed)) throw error;
      }
    }
    await submit(matchId, seat, command, clientSeq);
  }

  /** Tell a refusal of `seat`'s command: as the race it lost, or in the board's words. */
  private sayRefused(error: unknown, seat: number): void {
    const why = refusal(error);
    const race = lostRace(why, seat);
    if (race) return this.tellRace(race);
    this.say(this.board.refusalText?.(why) ?? msg("match.refused", { detail: explain(why) }), "refusal");
  }

  private async watch(seat: number): Promise<void> {
    let failures = 0;
    while (!this.abort.signal.aborted) {
      const token = await tokens.bearer();
      const socket = new PlaySocket(token, this.ctx.match.matchId, seat);
      this.sockets.set(seat, socket);
      try {
        for await (const update of socket.updates()) {
          failures = 0;
          this.take(update);
          if (update.status !== Status.LIVE) return;
        }
      } catch (error) {
        if (this.abort.signal.aborted) return;
        if (error instanceof ChangeMissed) continue; // another socket at once: its first update is whole
        const why = refusal(error);
        if (isTokenRefusal(why)) {
          if (await tokens.renew(token)) continue; // a new token: open again at once
          if (!tokens.current()) return; // the session is over: the page is back at sign-in
        } else if (!isTransportFailure(error) && why.reason) {
          this.say(msg("match.watch_stopped", { seat, detail: explain(why) }), "refusal");
          return;
        }
        failures += 1;
        this.say(msg("match.reconnecting"), "info");
      } finally {
        if (this.sockets.get(seat) === socket) this.sockets.delete(seat);
        socket.close();
      }
      if (this.ended) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(5, failures) * RETRY_PAUSE_MS));
    }
  }

  private take(update: MatchUpdate): void {
    this.latest.set(update.seat, update);
    this.receivedAt = performance.now();
    this.namePlayers(update.players);
    if (update.race) this.sayRace(update);
    const screen = choose(this.latest, this.ctx.match.seats);
    if (screen) {
      this.shown = screen;
      this.boardHost.replaceChildren(this.board.render(screen));
      this.tick();
    }
    const last = newest(this.latest);
    this.root.classList.toggle("over", last.status !== Status.LIVE); // its buttons go (CSS)
    this.showAway(last);
    if (last.status !== Status.LIVE && !this.ended) {
      this.ended = true;
      // Over, the players' names open their profiles (in play they would take one away).
      if (this.players.length) this.title.replaceChildren(...versusLinked(this.players, this.onProfile).map(toNode));
      window.clearInterval(this.ticker); // the faces were just drawn from the final clock
      void this.showEnd(last);
    }
  }

  /** The heading from the players an update names, each marked as the server knows them. */
  private namePlayers(players: Player[]): void {
    if (!players.length || players.every((p, seat) => sameName(p, this.players[seat]))) return;
    this.players = players;
    this.title.replaceChildren(...versusShown(players).map(toNode));
  }

  private sayRace(update: MatchUpdate): void {
    if (update.race) this.tellRace(update.race);
  }

  /** One notice per race, from whichever tells it first: the refusal or an update. */
  private tellRace(race: RaceFacts): void {
    const key = raceKey(race);
    if (this.racesTold.includes(key)) return;
    this.racesTold.push(key);
    if (this.racesTold.length > RACES_REMEMBERED) this.racesTold.shift();
    const stamps = h("details.stamps", h("summary", msg("race.exact_times")), h("p", this.raceStamps(race)));
    this.say(this.raceText(race), "race", stamps);
  }

  /** "2♥ beat your 4♦ to centre pile 1 by 81 ms", as the seat this page holds sees it. */
  private raceText(race: RaceFacts): () => string {
    const seats = this.ctx.match.seats;
    const mine = seats.length === 1 ? seats[0] : -1; // -1: both seats on this device
    const whose = (seat: number, card: Words) => (seat === mine ? msg("race.your_card", { card }) : msg("race.their_card", { name: this.nameOf(seat), card }));
    const winner = mine === race.refusedSeat ? race.landedCard : whose(race.landedSeat, race.landedCard);
    const loser = whose(race.refusedSeat, race.refusedCard || msg("race.a_card"));
    const gap = roughMs(race.gapUs);
    const text = race.pile >= 0 ? msg("race.beat_to_pile", { winner, loser, pile: race.pile + 1, gap }) : msg("race.beat", { winner, loser, gap });
    return () => sentence(textOf(text)); // formatted when shown: it follows the language
  }

  private raceStamps(race: RaceFacts): Message {
    return msg("race.stamps", {
      landed: race.landedCard,
      landedBy: this.nameOf(race.landedSeat),
      refused: race.refusedCard || msg("race.the_card"),
      refusedBy: this.nameOf(race.refusedSeat),
      gap: () => decimal(Number(race.gapUs) / 1000, 3),
    });
  }

  private nameOf(seat: number): Words {
    const player = this.players[seat];
    return player ? playerName(player) : (this.ctx.match.names[seat] ?? msg("match.other_player"));
  }

  /** Redraw the running clock faces from the last update and the time since it arrived. */
  private tick(): void {
    const { update } = this.last();
    if (!update?.clock?.enabled) return;
    const times = this.displayed();
    for (const face of this.boardHost.querySelectorAll<HTMLElement>("[data-clock-seat]")) {
      const seat = Number(face.dataset.clockSeat);
      const time = times[seat];
      if (!time) continue;
      face.dispatchEvent(new CustomEvent("clock", { detail: { time, running: update.clock.running === seat } }));
    }
  }

  private onKey = (event: KeyboardEvent): void => {
    const target = event.target as HTMLElement | null;
    if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (this.shown && this.board.key(event)) event.preventDefault();
  };

  /**
   * An online opponent who left (no move and no connection for the server's away limit):
   * offer the claim, which wins, or aborts with no rating a match they never moved in.
   */
  private showAway(last: MatchUpdate): void {
    const seats = this.ctx.match.seats;
    const opponent = seats.length === 1 ? 1 - seats[0] : -1;
    const away = last.status === Status.LIVE && opponent >= 0 && last.awaySeats.includes(opponent);
    const name = playerName(last.players[opponent], msg("match.your_opponent"));
    if (!away) {
      if (this.awayNotice) {
        this.awayNotice.remove();
        this.awayNotice = null;
        if (last.status === Status.LIVE) this.say(msg("away.back", { name }));
      }
      return;
    }
    const label = last.claimAborts ? msg("away.abort") : msg("away.claim");
    const shown = this.awayNotice?.querySelector<HTMLButtonElement>("#claim");
    if (shown?.textContent === textOf(label) && this.awayNotice?.isConnected) return;
    this.awayNotice?.remove();
    const claim = h("button.primary#claim", { type: "button", onclick: () => void this.send(seats[0], { kind: { case: "claim", value: {} } }) }, label);
    // Short: on a phone it must fit the notice area beside its button.
    this.say(msg(last.claimAborts ? "away.left_early" : "away.left", { name }), "info", claim);
    this.awayNotice = this.notices.firstElementChild as HTMLElement;
  }

  /** Show `text` in the notice area, whose size never changes: the newest on top. */
  say(text: Live, tone: "info" | "refusal" | "race" = "info", more?: HTMLElement): void {
    const line = h("div.notice-line", h(`p.notice.${tone}`, text), more);
    this.notices.prepend(line);
    while (this.notices.childElementCount > NOTICES_KEPT) this.notices.lastElementChild?.remove();
  }

  private async showEnd(last: MatchUpdate): Promise<void> {
    const names = last.players.map((p) => playerName(p));
    const parts: HTMLElement[] = [];
    if (last.status === Status.VOIDED) {
      const words = VOIDS[last.voidKind];
      parts.push(h("h3", msg(words?.title ?? "end.void")), h("p.void-reason", voidReason(last.voidReason, last.voidKind)));
      parts.push(h("p.void-explained", msg(words?.text ?? "end.void_text")));
    } else {
      const winner = last.outcome?.winner ?? -1;
      const mine = this.ctx.match.seats.length === 1 && this.ctx.match.seats[0] === winner;
      const name = names[winner] ?? "?";
      const title = this.ctx.match.seats.length === 1 ? msg(mine ? "end.you_won" : "end.you_lost") : msg("end.won_title", { name });
      parts.push(h("h3", title), h("p.outcome", outcomeText(name, last.outcome?.termination)));
    }
    const rating = h("p.rating-change", msg(last.rated ? "end.rating_waiting" : "end.unrated"));
    parts.push(rating, this.again(last), h("button#leave", { type: "button", onclick: () => this.onLeave() }, msg("end.back_to_lobby")));
    if (last.mode === Mode.ONLINE && this.ctx.match.seats.length === 1) {
      const opponent = playerName(last.players[1 - this.ctx.match.seats[0]!], msg("match.your_opponent"));
      parts.push(reportPanel(last.matchId, opponent, this.abort.signal));
    }
    this.endHost.replaceChildren(h("div.end-panel", parts));
    if (last.rated) await this.showRatingChange(last, rating);
  }

  /**
   * What comes next: against the computer or on one device, the same again; online (not a
   * tournament game), a rematch both must offer, followed while this panel is shown.
   */
  private again(last: MatchUpdate): HTMLElement {
    const { game, level, tournamentId, seats } = this.ctx.match;
    const host = h("div.again#again");
    const start = async (what: () => Promise<MatchAssignment>) => {
      try {
        this.onNext(await what());
      } catch (error) {
        host.append(h("p.refusal", msg("lobby.could_not_start", { detail: explain(refusal(error)) })));
      }
    };
    if (last.mode === Mode.COMPUTER && level) {
      host.append(h("button.primary#play-again", { type: "button", onclick: () => void start(() => arena.playComputer({ game, level })) }, msg("end.play_again_level")));
    } else if (last.mode === Mode.HOTSEAT) {
      host.append(h("button.primary#play-again", { type: "button", onclick: () => void start(() => arena.playHotSeat({ game })) }, msg("end.play_again_device")));
    } else if (last.mode === Mode.ONLINE && !tournamentId && seats.length === 1) {
      void this.followRematch(last, host);
    }
    return host;
  }

  private async followRematch(last: MatchUpdate, host: HTMLElement): Promise<void> {
    const opponent = playerName(last.players[1 - this.ctx.match.seats[0]], msg("match.your_opponent"));
    const offer = () =>
      void arena.offerRematch({ matchId: last.matchId }).catch((error: unknown) => {
        host.replaceChildren(h("p.refusal", msg("rematch.none", { detail: explain(refusal(error)) })));
      });
    try {
      for await (const update of arena.rematch({ matchId: last.matchId }, { signal: this.abort.signal })) {
        if (update.match) return this.onNext(update.match);
        const line = update.youOffer
          ? msg("rematch.offered", { name: opponent })
          : update.opponentOffers
            ? msg("rematch.they_offer", { name: opponent })
            : update.opponentHere
              ? msg("rematch.both")
              : msg("rematch.they_left", { name: opponent });
        const button = update.youOffer
          ? null
          : h("button.primary#rematch", { type: "button", onclick: offer }, msg(update.opponentOffers ? "rematch.accept" : "rematch.offer"));
        host.replaceChildren(h("p.rematch-status", line), ...(button ? [button] : []));
      }
    } catch (error) {
      if (!this.abort.signal.aborted) host.replaceChildren(h("p", msg("rematch.none", { detail: explain(refusal(error)) })));
    }
  }

  private async showRatingChange(last: MatchUpdate, into: HTMLElement): Promise<void> {
    for (let attempt = 0; attempt < 20 && !this.abort.signal.aborted; attempt++) {
      try {
        const history = await arena.getHistory({ playerId: this.ctx.session.playerId, game: last.game, limit: 5 });
        const entry = history.entries.find((e) => e.matchId === last.matchId);
        if (entry) {
          if (!entry.rated) setText(into, noRatingChange(entry));
          else {
            const sign = entry.change >= 0 ? "+" : "";
            const [before, after, change] = [() => decimal(entry.ratingBefore), () => decimal(entry.ratingAfter), () => sign + decimal(entry.change, 1)];
            setText(into, msg("end.rating", { before, after, change }));
          }
          return;
        }
      } catch {
        // the ratings service may lag the result: try again
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** Whether two players would be shown alike (the heading is drawn again only when not). */
function sameName(a: Player, b: Player | undefined): boolean {
  return b !== undefined && a.name === b.name && a.guest === b.guest && a.bot === b.bot;
}

/** What tells one race from another, whoever tells it. */
export function raceKey(race: RaceFacts): string {
  return `${race.landedCard}|${race.refusedCard}|${race.gapUs}`;
}

/** The race a refused command lost, from the refusal's metadata (null: it lost none). */
function lostRace(why: Refusal, seat: number): RaceFacts | null {
  const { landed_card: landedCard, gap_us: gapUs, landed_seat: landedSeat, claim_slot: pile, label } = why.metadata;
  if (!landedCard || !gapUs || !/^\d+$/.test(gapUs)) return null;
  const number = (text: string | undefined) => (text && /^\d+$/.test(text) ? Number(text) : -1);
  return {
    pile: number(pile),
    landedCard,
    landedSeat: number(landedSeat),
    refusedCard: label ?? "",
    refusedSeat: seat,
    gapUs: BigInt(gapUs),
  };
}

/** A gap as a player reads it: whole milliseconds, tenths below 10 ms. */
export function roughMs(gapUs: bigint): Message {
  const ms = Number(gapUs) / 1000;
  if (ms >= 10) return msg("time.ms", { ms: () => decimal(ms) });
  return ms >= 0.1 ? msg("time.ms", { ms: () => decimal(ms, 1) }) : msg("time.under_tenth_ms", { limit: () => decimal(0.1, 1) });
}

/** The first letter of `text` as a sentence starts (a no-op in a script without case). */
function sentence(text: string): string {
  return text.charAt(0).toLocaleUpperCase(currentLanguage().locale) + text.slice(1);
}

export function gameName(game: number): Words {
  return game === Game.SPIT ? msg("game.spit") : game === Game.BID ? msg("game.bid") : "?";
}

/** "Reason: …" of a void, in words from its kind (or the server's sentence), or "not given". */
export function voidReason(sentence: string, kind = ""): Message {
  return msg("end.void_reason", { reason: voidWords(sentence, kind) });
}

/** "Ann won: on time." (or "Ann won." when the termination is unknown). */
export function outcomeText(name: Words, termination: Termination | undefined): Message {
  const how = TERMINATIONS[termination ?? 0];
  return how ? msg("end.won_how", { name, how: msg(how) }) : msg("end.won", { name });
}

/** Why a finished match moved no rating: void, over the pair's daily cap, or unrated. */
function noRatingChange(entry: HistoryEntry): Message {
  if (entry.voidReason) return msg("end.no_rating_void", { reason: voidWords(entry.voidReason) });
  if (entry.uncountedReason) return msg("end.no_rating_uncounted");
  return msg("end.no_rating");
}
