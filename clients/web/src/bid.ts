// The Spectacular Bid table: board, hand, auction, gates, both balances and both clocks.
import { formatGrace, formatMs, type SeatTime } from "./clock";
import { h, KeptControls } from "./dom";
import { setText } from "./i18n/live";
import { STRAIGHT, fitBoard, layBoard, tileKey, withPlay, type Runs } from "./bidboard";
import type { MatchUpdate } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import type { Player } from "./gen/photofinish/events/v1/events_pb";
import { type BidBoard as Line, type BidCommand, type BidCommandSchema, type BidEvent } from "./gen/photofinish/game/v1/bid_pb";
import type { BidPlay, BidPlayed, BidSettlement, BidView } from "./gen/photofinish/game/v1/bid_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { tileFace } from "./tiles";
import { Gate } from "./gen/photofinish/game/v1/game_pb";
import type { Board, MatchContext } from "./match";
import type { Screen } from "./perspective";
import { rulesHelp } from "./help";
import { glide, spotsOf, type Spot } from "./motion";
import { BID_STEP, bidProblem, settlementShown, settlementWords } from "./bidwords";
import { keepPlays, keptPlays, type Heard } from "./bidlog";
import { isMarkedGuest, nameAlone, playerName } from "./names";
import { msg, t, type Message, type Words } from "./i18n/messages";

type BidKind = NonNullable<MessageInitShape<typeof BidCommandSchema>["kind"]>;

/** How a round ended as this page saw it: its final board and the play that ended it. */
interface RoundEnd {
  roundNo: number;
  board: Line | undefined;
  last: BidPlayed | null;
}

const JOCKEY_DISCOUNT = 15;
const CHIP = 5;
const LOG_LINES = 8;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const NO_SLOTS = { onEnd: () => undefined, legalEnds: new Set<string>(), labels: new Map<string, string>() };

export class BidBoard implements Board {
  private readonly kept = new KeptControls(); // its buttons, the same nodes on every drawing
  private screen: Screen | null = null;
  private view: BidView | null = null;
  private seat = -1;
  private names: Words[] = [];
  private players: Player[] = [];
  private selected: string | null = null;
  private sending = false; // a play is on its way: a second click would only be refused
  private heard: Heard[] = []; // the plays list's lines, worded when drawn
  private logged = 0;
  private loggedSeq = -1n;
  private line: { roundNo: number; board: Line | undefined } | null = null; // the last view's
  private ended: RoundEnd | null = null;
  private unfit: () => void = () => undefined; // stops fitting the last board drawn
  private root: HTMLElement = h("div");

  constructor(private readonly ctx: MatchContext) {}

  render(screen: Screen): HTMLElement {
    const update = screen.update;
    if (update.view?.kind.case !== "bid") return h("div", "…");
    const view = update.view.kind.value;
    this.screen = screen;
    this.players = update.players;
    this.names = update.players.map((p) => playerName(p));
    this.remember(update, view);
    this.unfit();
    if (screen.kind === "handover") {
      this.view = null;
      this.seat = -1;
      return (this.root = this.handover(update, screen.seat, screen.name));
    }
    this.view = view;
    this.seat = screen.showHand ? screen.viewer : -1;
    const plays = this.plays();
    const playable = new Set(plays.map((p) => tileKey(p.tile)));
    if (this.selected && !playable.has(this.selected)) this.selected = null;
    if (!this.selected && playable.size === 1 && !this.sending) this.selected = [...playable][0];
    const settled = settlementShown(view);
    const ended = settled && this.ended?.roundNo === settled.roundNo ? this.ended : null;
    const { wrap, lay } = this.boardWrap(view, plays, view.gate === Gate.CONTINUE ? ended : null);
    const before = spotsOf(this.root);
    this.root = h(
      "div.bid-table",
      this.scoreboard(update, view),
      wrap,
      settled ? this.roundEnd(settled, ended?.last ?? null) : this.endCount(view),
      this.seat >= 0 ? this.hand(view, plays) : h("div.hand.hidden-hand", this.hiddenHandNote(view)),
      this.actions(view, this.seat >= 0 ? view.legal : []),
      h("div.play-log", h("h4", msg("bid.plays")), h("ol", this.heard.map(({ n, event, last }) => h("li", { value: String(n) }, this.wordsOf(event, last))))),
      rulesHelp("bid"),
    );
    this.fit(wrap, lay, before);
    return this.root;
  }

  /** The viewer's legal plays (none when the page shows no hand). */
  private plays(): BidPlay[] {
    if (!this.view || this.seat < 0) return [];
    return this.view.legal.flatMap((c) => (c.kind.case === "play" ? [c.kind.value] : []));
  }

  /** The live board, or the final board of the round that `ended` (none after a reload). */
  private boardWrap(view: BidView, plays: BidPlay[], ended: RoundEnd | null): { wrap: HTMLElement; lay: (runs: Runs) => HTMLElement } {
    const final = ended?.board?.placements.length ? ended : null;
    const lay = final ? (runs: Runs) => layBoard(final.board, [], NO_SLOTS, runs) : (runs: Runs) => this.liveBoard(view, plays, runs);
    const caption = final ? h("p.board-caption", msg("bid.final_board", { round: final.roundNo })) : null;
    return { wrap: h(`div.board-wrap${final ? ".final-board" : ""}`, caption, lay(STRAIGHT)), lay };
  }

  private liveBoard(view: BidView, plays: BidPlay[], runs: Runs): HTMLElement {
    const ends = plays.filter((p) => tileKey(p.tile) === this.selected && p.end).map((p) => p.end?.text ?? "");
    const legalEnds = new Set(ends);
    const labels = new Map([...legalEnds].map((id, i) => [id, LETTERS[i] ?? ""]));
    return layBoard(view.board, view.openPoints, { onEnd: (id) => this.playAt(id), legalEnds, labels }, runs);
  }

  /**
   * Fit the board to the wrap once it is in the page, and again when the page is resized or the
   * table's height changes; once fitted, the tile just played glides there from the hand, or
   * from its player's panel.
   */
  private fit(wrap: HTMLElement, lay: (runs: Runs) => HTMLElement, before: Spot[]): void {
    const actions = this.root.querySelector<HTMLElement>(".actions");
    let room = "";
    const refit = () => {
      if (actions?.isConnected) wrap.style.setProperty("--room", `${roomLeft(wrap, actions)}px`);
      const now = `${wrap.clientWidth} ${getComputedStyle(wrap).maxHeight}`; // not the board's own size
      if (now === room) return;
      room = now;
      fitBoard(wrap, lay);
      glide(before.splice(0), this.root, (element) => this.playedFrom(element));
    };
    const fitter = new ResizeObserver(refit);
    fitter.observe(wrap);
    fitter.observe(this.root); // a text below the board wraps to more lines, say
    const resized = new AbortController(); // a viewport grown taller or shorter: no element resized
    window.addEventListener("resize", refit, { signal: resized.signal });
    this.unfit = () => (fitter.disconnect(), resized.abort());
    // The first fit runs as soon as the table is in the page, before it is painted or any input
    // reaches it: fitted later, from the observer, the board would be laid again under a
    // player's finger, and a tap on an end that was just replaced is lost.
    queueMicrotask(() => {
      if (wrap.isConnected) refit();
    });
  }

  /**
   * Keep a short log of what happened, oldest first, with the points each play scored
   * (kept for a reload of the tab: bidlog.ts); and each round's final board, which no view
   * shows (the next view is the next deal).
   */
  private remember(update: MatchUpdate, view: BidView): void {
    if (this.loggedSeq < 0n && this.logged === 0) {
      const kept = keptPlays(update.matchId); // this tab's page before a reload
      if (kept) ({ heard: this.heard, logged: this.logged, seq: this.loggedSeq } = kept);
    }
    if (update.seq <= this.loggedSeq) return;
    this.loggedSeq = update.seq;
    this.sending = false; // the play was taken, or the match moved on without it
    let line = this.line;
    let last: BidPlayed | null = null;
    const logged = this.logged;
    for (const event of update.events) {
      if (event.kind.case !== "bid") continue;
      const e = event.kind.value.kind;
      if (e.case === "played" && e.value.tile) {
        last = e.value;
        if (line) line = { roundNo: line.roundNo, board: withPlay(line.board, e.value.tile, e.value.end) };
      }
      if (e.case === "roundEnded" && e.value.settlement) {
        const roundNo = e.value.settlement.roundNo;
        this.ended = { roundNo, board: line?.roundNo === roundNo ? line.board : undefined, last };
      }
      if (this.wordsOf(event.kind.value, last)) this.heard.push({ n: ++this.logged, event: event.kind.value, last });
    }
    this.heard.splice(0, Math.max(0, this.heard.length - LOG_LINES));
    if (this.logged !== logged) keepPlays(update.matchId, { heard: this.heard, logged: this.logged, seq: this.loggedSeq });
    this.line = { roundNo: view.roundNo, board: view.board };
  }

  /** A line of the plays list: a round's end with the play that ended it, or the event's own. */
  private wordsOf(event: BidEvent, last: BidPlayed | null): Words {
    const e = event.kind;
    return e.case === "roundEnded" && e.value.settlement ? settlementWords(e.value.settlement, this.names, last)[0] : this.logLine(e);
  }

  private logLine(e: BidEvent["kind"]): Message | "" {
    const name = (seat: number) => this.nameOf(seat);
    switch (e.case) {
      case "played":
        return msg(e.value.points ? "bid.log.played_scored" : "bid.log.played", { name: name(e.value.seat), tile: e.value.tile?.text ?? "", total: e.value.total, points: e.value.points });
      case "drew":
        return msg("bid.log.drew", { name: name(e.value.seat), count: e.value.count });
      case "passed":
        return msg(e.value.forced ? "bid.log.passed_forced" : "bid.log.passed", { name: name(e.value.seat) });
      case "auctionPassed":
        return msg("bid.log.auction_passed", { name: name(e.value.seat) });
      case "bidMade":
        return msg("bid.log.bid", { name: name(e.value.seat), amount: e.value.amount });
      case "bidAccepted":
        return msg("bid.log.accepted", { name: name(e.value.seat), bidder: name(e.value.bidder), paid: e.value.paid });
      case "dealt":
        return msg("bid.log.dealt", { round: e.value.roundNo });
      default:
        return "";
    }
  }

  /** Where a tile no one saw before came from: the panel of the player who just played it. */
  private playedFrom(element: HTMLElement): DOMRect | undefined {
    if (element.dataset.place !== "board") return undefined;
    const played = this.screen?.update.events.find((e) => e.kind.case === "bid" && e.kind.value.kind.case === "played");
    const event = played?.kind.case === "bid" && played.kind.value.kind.case === "played" ? played.kind.value.kind.value : null;
    if (!event || tileKey(event.tile) !== element.dataset.piece) return undefined;
    return this.root.querySelector(`.player[data-seat="${event.seat}"]`)?.getBoundingClientRect();
  }

  private nameOf(seat: number): Words {
    return this.names[seat] ?? this.ctx.match.names[seat] ?? msg("names.seat_index", { seat });
  }

  private scoreboard(update: MatchUpdate, view: BidView): HTMLElement {
    const running = update.clock?.running ?? -1;
    return h(
      "div.scoreboard",
      [0, 1].map((seat) => {
        const balance = view.balances[seat] ?? 0;
        const clock = update.clock?.seats[seat];
        const yours = this.ctx.match.seats.length === 1 && this.ctx.match.seats[0] === seat;
        const player = this.players[seat];
        const marks = yours ? msg("names.you_mark") : player && isMarkedGuest(player) ? msg("names.guest_mark") : null; // kept whole: a long name is cut instead
        return h(
          `div.player${view.decide.includes(seat) ? ".deciding" : ""}`,
          { "data-seat": String(seat) },
          h("div.player-name", h("span.name", player ? nameAlone(player) : this.nameOf(seat)), marks ? h("span.marks", marks) : null, view.jockey === seat ? h("span.jockey", { title: msg("bid.jockey_title", { discount: JOCKEY_DISCOUNT }) }, msg("bid.jockey")) : null),
          h(
            "div.balance",
            h("span.chips", { "aria-hidden": "true" }, Array.from({ length: Math.ceil(balance / CHIP) }, () => h("i.chip"))),
            h("b.points", String(balance)),
            h("span.hand-count", tilesText(view.handCounts[seat] ?? 0)),
          ),
          clockFace(seat, { graceMs: Number(clock?.graceMs ?? 0), bankMs: Number(clock?.bankMs ?? 0) }, running === seat),
        );
      }),
      h("div.boneyard", msg("bid.boneyard", { count: view.boneyardCount, round: view.roundNo })),
    );
  }

  private endCount(view: BidView): HTMLElement {
    if (!view.board?.placements.length) return h("div.end-count", msg("bid.ends_empty"));
    const parts = view.counted.map((c) => `${c.points}`).join(" + ");
    const scores = view.endSum > 0 && view.endSum % 5 === 0;
    return h(
      "div.end-count",
      h("span", msg("bid.ends"), " "),
      h("b", parts ? `${parts} = ${view.endSum}` : String(view.endSum)),
      h("span.scores", scores ? msg("bid.ends_scored", { sum: view.endSum }) : msg("bid.ends_no_score", { step: BID_STEP })),
    );
  }

  /** Why the round paid what it paid, shown until Continue is pressed (or at the end). */
  private roundEnd(settlement: BidSettlement, last: BidPlayed | null): HTMLElement {
    const [headline, why] = settlementWords(settlement, this.names, last);
    return h("div.round-end", { "data-round": String(settlement.roundNo) }, h("p.round-end-title", headline), h("p.round-end-why", why));
  }

  private hiddenHandNote(view: BidView): Message | "" {
    if (view.gate === Gate.START || view.gate === Gate.CONTINUE) return msg("bid.hands_hidden");
    return "";
  }

  private hand(view: BidView, plays: BidPlay[]): HTMLElement {
    const mine = view.decide.includes(this.seat) && view.gate === Gate.NONE;
    return h(
      "div.hand",
      { "data-seat": String(this.seat) },
      h("h4", view.gate === Gate.CONTINUE ? msg("bid.hand_for_round", { round: view.roundNo }) : msg("bid.hand")),
      h(
        "div.tiles",
        view.hand.map((tile, index) => {
          const key = tileKey(tile);
          const can = plays.some((p) => tileKey(p.tile) === key);
          return h(
            `button.hand-tile${can ? ".playable" : ".unplayable"}${this.selected === key ? ".selected" : ""}`,
            {
              type: "button",
              "data-tile": key,
              onclick: () => this.choose(key),
              "aria-label": can ? msg("bid.tile_playable", { tile: tile.text }) : tile.text,
            },
            h("kbd", String(index + 1)),
            tileFace(tile.low, tile.high, false, { "data-piece": key, "data-place": "hand" }),
          );
        }),
      ),
      view.mustPlay ? h("p.must", msg("bid.must_play", { tile: view.mustPlay.text })) : null,
      view.mustOpenWith ? h("p.must", msg(mine ? "bid.you_open" : "bid.you_will_open", { tile: view.mustOpenWith.text })) : null,
    );
  }

  private actions(view: BidView, legal: BidCommand[]): HTMLElement {
    const has = (kind: BidCommand["kind"]["case"]) => legal.some((c) => c.kind.case === kind);
    const items: (HTMLElement | null)[] = [];
    const gate = view.gate === Gate.START || view.gate === Gate.CONTINUE;
    if (gate) {
      const mine = view.decide.filter((s) => this.ctx.match.seats.includes(s));
      items.push(
        mine.length
          ? this.kept.get(`ready-${view.gate}-${mine.join()}`, () => h("button.primary#ready", { type: "button", onclick: () => this.ready(mine) }, msg(view.gate === Gate.START ? "bid.start" : "bid.continue")))
          : h("span.waiting", msg("bid.waiting")),
      );
    }
    if (view.auction && (has("passBid") || has("bid") || has("accept"))) items.push(this.auction(view, legal, has));
    else if (view.auction && !gate) items.push(this.auctionSummary(view));
    if (has("draw")) items.push(this.kept.get("draw", () => h("button#draw", { type: "button", onclick: () => this.sendBid({ case: "draw", value: {} }) }, msg("bid.draw"))));
    if (this.seat >= 0 && view.winner < 0) {
      items.push(this.kept.get("resign", () => h("button.danger#resign", { type: "button", onclick: () => confirm(t("bid.resign_confirm")) && this.sendBid({ case: "resign", value: {} }) }, msg("match.resign"))));
    }
    const deciding = view.decide.length === 1 && view.gate === Gate.NONE;
    const whose = deciding ? h("p.turn", msg(view.auction ? "bid.to_decide" : "bid.to_play", { name: this.nameOf(view.decide[0]) })) : null;
    return h("div.actions", whose, items);
  }

  private auctionSummary(view: BidView): HTMLElement {
    const a = view.auction!;
    return h("div.auction", h("h4", msg("bid.auction")), h("p", a.bidder >= 0 ? msg("bid.bids", { name: this.nameOf(a.bidder), bid: a.bid }) : msg("bid.no_bid")));
  }

  private auction(view: BidView, legal: BidCommand[], has: (k: BidCommand["kind"]["case"]) => boolean): HTMLElement {
    const a = view.auction!;
    const jockey = view.jockey === this.seat;
    const amounts = legal.flatMap((c) => (c.kind.case === "bid" ? [c.kind.value.amount] : []));
    const input = h("input#bid-amount", { type: "number", min: String(a.minBid), step: String(BID_STEP), value: String(a.minBid), "aria-label": msg("bid.amount") }) as HTMLInputElement;
    const discount = h("span.discount", "");
    const updateDiscount = () => {
      const amount = Number(input.value);
      setText(discount, jockey ? msg("bid.pay_as_jockey", { pay: Math.max(0, amount - JOCKEY_DISCOUNT), discount: JOCKEY_DISCOUNT }) : msg("bid.pay", { pay: amount }));
    };
    input.addEventListener("input", updateDiscount);
    updateDiscount();
    const bidder = this.nameOf(a.bidder);
    const cost = { name: bidder, bid: a.bid, cost: a.cost };
    const standing = a.bidder >= 0 ? msg(view.jockey === a.bidder ? "bid.standing_jockey" : "bid.standing", cost) : msg("bid.no_bid");
    const offer = (event: Event) => {
      event.preventDefault();
      const why = bidProblem(input.value, amounts, a.minBid);
      if (why) this.ctx.say(why, "refusal");
      else void this.sendBid({ case: "bid", value: { amount: Number(input.value) } });
    };
    return h(
      "div.auction",
      h("h4", msg("bid.auction_opening")),
      h("p", standing),
      h(
        "div.auction-buttons",
        has("passBid") ? h("button#pass-bid", { type: "button", onclick: () => this.sendBid({ case: "passBid", value: {} }) }, msg("bid.pass")) : null,
        has("accept") ? h("button#accept", { type: "button", onclick: () => this.sendBid({ case: "accept", value: {} }) }, msg("bid.accept", cost)) : null,
        has("bid")
          ? h("form.bid-form", { novalidate: true, onsubmit: offer }, input, h("button.primary#bid", { type: "submit" }, msg(a.bidder >= 0 ? "bid.raise" : "bid.bid")), discount)
          : null,
      ),
    );
  }

  private handover(update: MatchUpdate, seat: number, name: Words): HTMLElement {
    const view = update.view?.kind.case === "bid" ? update.view.kind.value : null;
    return h(
      "div.bid-table.handover-screen",
      view ? this.scoreboard(update, view) : null,
      h(
        "div.handover",
        h("h3", msg("bid.handover", { name })),
        h("p", msg("bid.handover_clocks")),
        h("button.primary#reveal", { type: "button", onclick: () => void this.ctx.send(seat, { kind: { case: "reveal", value: {} } }) }, msg("bid.reveal", { name })),
      ),
    );
  }

  key(event: KeyboardEvent): boolean {
    const view = this.view;
    if (!view) {
      if (event.key === "Enter" && this.root.querySelector("#reveal")) return (this.root.querySelector<HTMLButtonElement>("#reveal")!.click(), true);
      return false;
    }
    const key = event.key.toLowerCase();
    if (/^[1-9]$/.test(key)) {
      const tile = view.hand[Number(key) - 1];
      if (tile) this.choose(tileKey(tile));
      return true;
    }
    if (key === "d") return this.root.querySelector<HTMLButtonElement>("#draw")?.click(), true;
    if (key === "enter") return this.enter();
    const slot = [...this.root.querySelectorAll<HTMLElement>(".end-slot.legal")].find((s) => s.querySelector("kbd")?.textContent === key);
    if (slot) return slot.click(), true;
    return false;
  }

  /** Enter: press the gate, play the selected tile's only play, or take its first end. */
  private enter(): boolean {
    const ready = this.root.querySelector<HTMLButtonElement>("#ready");
    if (ready) return ready.click(), true;
    const ways = this.plays().filter((p) => tileKey(p.tile) === this.selected);
    if (ways.length === 1) return this.play(ways[0]), true;
    const slot = this.root.querySelector<HTMLButtonElement>(".end-slot.legal");
    slot?.click();
    return Boolean(slot);
  }

  /** A tile clicked: play it when it has one way to go, else select it, else say why not. */
  private choose(key: string): void {
    if (this.sending) return;
    const ways = this.plays().filter((p) => tileKey(p.tile) === key);
    if (ways.length === 0) return this.ctx.say(this.whyNot(key), "refusal");
    if (ways.length === 1) return this.play(ways[0]);
    this.selected = this.selected === key ? null : key;
    this.redraw();
  }

  /** Why the tile `key` cannot be played now, in a player's words. */
  private whyNot(key: string): Message {
    const view = this.view;
    const tile = `[${key}]`;
    if (!view || view.winner >= 0) return msg("match.over");
    if (view.gate === Gate.START) return msg("bid.why.start", { tile });
    if (view.gate === Gate.CONTINUE) return msg("bid.why.continue", { tile });
    if (!view.decide.includes(this.seat)) return msg("bid.why.turn", { tile, name: this.nameOf(view.decide[0] ?? -1) });
    if (view.auction) return msg("bid.why.auction", { tile });
    if (view.mustPlay) return msg("bid.why.must_play", { tile, drawn: view.mustPlay.text });
    if (view.mustOpenWith) return msg("bid.why.must_open", { tile, opening: view.mustOpenWith.text });
    const values = [...new Set(view.openPoints.map((p) => p.value))].sort((a, b) => a - b);
    const needs = values.map(String).reduce<Words>((shown, next) => (shown ? msg("bid.why.or", { first: shown, second: next }) : next), "");
    const draw = view.legal.some((c) => c.kind.case === "draw");
    return msg(draw ? "bid.why.no_end_draw" : "bid.why.no_end", { tile, needs });
  }

  private playAt(endText: string): void {
    const play = this.plays().find((p) => tileKey(p.tile) === this.selected && (p.end?.text ?? "") === endText);
    if (play) this.play(play);
  }

  private play(play: BidPlay): void {
    if (this.sending) return;
    this.selected = null;
    this.sending = true;
    this.redraw();
    void this.sendBid({ case: "play", value: { tile: play.tile, end: play.end } }).finally(() => (this.sending = false));
  }

  private redraw(): void {
    if (this.screen && this.root.isConnected) this.root.replaceWith(this.render(this.screen));
  }

  private ready(seats: number[]): void {
    for (const seat of seats) void this.ctx.send(seat, { kind: { case: "bid", value: { kind: { case: "ready", value: {} } } } });
  }

  private sendBid(kind: BidKind): Promise<boolean> {
    const seat = this.seat >= 0 ? this.seat : this.ctx.match.seats[0];
    return this.ctx.send(seat, { kind: { case: "bid", value: { kind } } });
  }
}

/**
 * The height, in px, the board's wrap may take so that `actions` still ends inside the first
 * screen: the viewport's height less everything else from the top of the page down to the
 * bottom of `actions`, whose height does not depend on the board's. Never below the wrap's
 * min-height; the stylesheet caps it at the wrap's own max-height (style.css, `--room`).
 */
function roomLeft(wrap: HTMLElement, actions: HTMLElement): number {
  const rest = actions.getBoundingClientRect().bottom + window.scrollY - wrap.getBoundingClientRect().height;
  return Math.max(parseFloat(getComputedStyle(wrap).minHeight), Math.floor(document.documentElement.clientHeight - rest));
}

/** A seat's clock face; the match redraws it with "clock" events as time runs. */
function clockFace(seat: number, time: SeatTime, running: boolean): HTMLElement {
  // The units after each figure are the stylesheet's (::after), in the page's language.
  const grace = h("span.grace", { title: msg("clock.grace_title"), "data-unit": msg("clock.grace_unit") });
  const bank = h("span.bank", { title: msg("clock.bank_title"), "data-unit": msg("clock.bank_unit") });
  const face = h("div.clock", { "data-clock-seat": String(seat) }, grace, bank);
  const show = (t: SeatTime, on: boolean) => {
    // Only a running decision has a grace: a waiting seat's is not spent, it has none yet.
    grace.textContent = on ? formatGrace(t.graceMs) : "";
    bank.textContent = formatMs(t.bankMs);
    face.dataset.graceMs = String(Math.floor(t.graceMs));
    face.dataset.bankMs = String(Math.floor(t.bankMs));
    face.classList.toggle("running", on);
  };
  show(time, running);
  face.addEventListener("clock", (event) => {
    const { time: t, running: on } = (event as CustomEvent<{ time: SeatTime; running: boolean }>).detail;
    show(t, on);
  });
  return face;
}

function tilesText(count: number): Message {
  return msg("bid.tiles", { count });
}
