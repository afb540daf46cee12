// The Spectacular Bid table: board, hand, auction, gates, both balances and both clocks.
import { formatGrace, formatMs, type SeatTime } from "./clock";
import { h } from "./dom";
import { layBoard, tileKey } from "./bidboard";
import type { MatchUpdate } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import type { BidCommand, BidCommandSchema, BidView, Tile } from "./gen/photofinish/game/v1/bid_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { tileFace } from "./tiles";
import { Gate } from "./gen/photofinish/game/v1/game_pb";
import type { Board, MatchContext } from "./match";
import type { Screen } from "./perspective";
import { rulesHelp } from "./help";

type BidKind = NonNullable<MessageInitShape<typeof BidCommandSchema>["kind"]>;

const JOCKEY_DISCOUNT = 15;
const CHIP = 5;
const LOG_LINES = 8;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export class BidBoard implements Board {
  private screen: Screen | null = null;
  private view: BidView | null = null;
  private seat = -1;
  private selected: string | null = null;
  private readonly log: string[] = [];
  private loggedSeq = -1n;
  private root: HTMLElement = h("div");

  constructor(private readonly ctx: MatchContext) {}

  render(screen: Screen): HTMLElement {
    const update = screen.update;
    if (update.view?.kind.case !== "bid") return h("div", "…");
    const view = update.view.kind.value;
    this.remember(update);
    this.screen = screen;
    if (screen.kind === "handover") {
      this.view = null;
      this.seat = -1;
      return (this.root = this.handover(update, screen.seat, screen.name));
    }
    this.view = view;
    this.seat = screen.showHand ? screen.viewer : -1;
    const legal = this.seat >= 0 ? view.legal : [];
    const plays = legal.flatMap((c) => (c.kind.case === "play" ? [c.kind.value] : []));
    const playable = new Set(plays.map((p) => tileKey(p.tile)));
    if (this.selected && !playable.has(this.selected)) this.selected = null;
    if (!this.selected && playable.size === 1) this.selected = [...playable][0];
    const legalEnds = new Set(plays.filter((p) => tileKey(p.tile) === this.selected && p.end).map((p) => p.end?.text ?? ""));
    const labels = new Map([...legalEnds].map((id, i) => [id, LETTERS[i] ?? ""]));
    const names = update.players.map((p) => p.name);
    this.root = h(
      "div.bid-table",
      this.scoreboard(update, view, names),
      h(
        "div.board-wrap",
        layBoard(view.board, view.openPoints, { onEnd: (id) => this.playAt(id), legalEnds, labels }),
      ),
      this.endCount(view),
      this.seat >= 0 ? this.hand(view, playable) : h("div.hand.hidden-hand", this.hiddenHandNote(view)),
      this.actions(view, legal, names),
      h("div.play-log", h("h4", "Plays"), h("ol", this.log.map((line) => h("li", line)))),
      rulesHelp("bid"),
    );
    return this.root;
  }

  /** Keep a short log of what happened, with the points each play scored. */
  private remember(update: MatchUpdate): void {
    if (update.seq <= this.loggedSeq) return;
    this.loggedSeq = update.seq;
    const name = (seat: number) => update.players[seat]?.name ?? `seat ${seat}`;
    for (const event of update.events) {
      if (event.kind.case !== "bid") continue;
      const e = event.kind.value.kind;
      let line = "";
      if (e.case === "played") line = `${name(e.value.seat)} played ${e.value.tile?.text ?? ""}: ends ${e.value.total}${e.value.points ? `, scored ${e.value.points}` : ", no score"}`;
      else if (e.case === "drew") line = `${name(e.value.seat)} drew ${e.value.count}`;
      else if (e.case === "passed") line = `${name(e.value.seat)} passed${e.value.forced ? " (could not play or draw)" : ""}`;
      else if (e.case === "auctionPassed") line = `${name(e.value.seat)} passed the auction`;
      else if (e.case === "bidMade") line = `${name(e.value.seat)} bid ${e.value.amount}`;
      else if (e.case === "bidAccepted") line = `${name(e.value.seat)} accepted: ${name(e.value.bidder)} pays ${e.value.paid} and opens`;
      else if (e.case === "roundEnded") line = `Round ${e.value.settlement?.roundNo ?? ""} ended: ${e.value.settlement?.transfer ?? 0} to ${name(e.value.settlement?.seat ?? -1)}`;
      else if (e.case === "dealt") line = `Round ${e.value.roundNo} dealt`;
      if (line) this.log.unshift(line);
    }
    this.log.splice(LOG_LINES);
  }

  private scoreboard(update: MatchUpdate, view: BidView, names: string[]): HTMLElement {
    const running = update.clock?.running ?? -1;
    return h(
      "div.scoreboard",
      [0, 1].map((seat) => {
        const balance = view.balances[seat] ?? 0;
        const clock = update.clock?.seats[seat];
        const face = h(
          `div.clock${running === seat ? ".running" : ""}`,
          { "data-clock-seat": String(seat) },
          h("span.grace", { title: "grace for this decision" }, formatGrace(Number(clock?.graceMs ?? 0))),
          h("span.bank", { title: "match bank" }, formatMs(Number(clock?.bankMs ?? 0))),
        );
        face.addEventListener("clock", (event) => {
          const { time, running: on } = (event as CustomEvent<{ time: SeatTime; running: boolean }>).detail;
          face.querySelector(".grace")!.textContent = formatGrace(time.graceMs);
          face.querySelector(".bank")!.textContent = formatMs(time.bankMs);
          face.dataset.graceMs = String(Math.floor(time.graceMs));
          face.dataset.bankMs = String(Math.floor(time.bankMs));
          face.classList.toggle("running", on);
        });
        const you = this.ctx.match.seats.length === 1 && this.ctx.match.seats[0] === seat ? " (you)" : "";
        return h(
          `div.player${view.decide.includes(seat) ? ".deciding" : ""}`,
          { "data-seat": String(seat) },
          h("div.player-name", `${names[seat] ?? ""}${you}${view.jockey === seat ? " · jockey" : ""}`),
          h("div.balance", h("span.chips", { "aria-hidden": "true" }, Array.from({ length: Math.ceil(balance / CHIP) }, () => h("i.chip"))), h("b.points", String(balance))),
          h("div.hand-count", `${view.handCounts[seat] ?? 0} tiles`),
          face,
        );
      }),
      h("div.boneyard", `Boneyard ${view.boneyardCount} · Round ${view.roundNo}`),
    );
  }

  private endCount(view: BidView): HTMLElement {
    if (!view.board?.placements.length) return h("div.end-count", "Ends: nothing on the board yet");
    const parts = view.counted.map((c) => `${c.points}`).join(" + ");
    const scores = view.endSum > 0 && view.endSum % 5 === 0;
    return h(
      "div.end-count",
      h("span", "Ends: "),
      h("b", parts ? `${parts} = ${view.endSum}` : String(view.endSum)),
      h("span.scores", scores ? ` — that scored ${view.endSum}` : " — no score (not a multiple of 5)"),
    );
  }

  private hiddenHandNote(view: BidView): string {
    if (view.gate === Gate.START || view.gate === Gate.CONTINUE) return "Hands stay hidden until the gate is lifted.";
    return "";
  }

  private hand(view: BidView, playable: Set<string>): HTMLElement {
    return h(
      "div.hand",
      { "data-seat": String(this.seat) },
      h("h4", "Your hand"),
      h(
        "div.tiles",
        view.hand.map((tile, index) => {
          const key = tileKey(tile);
          const can = playable.has(key);
          const button = h(
            `button.hand-tile${can ? ".playable" : ""}${this.selected === key ? ".selected" : ""}`,
            { type: "button", "data-tile": key, disabled: !can, onclick: () => this.choose(key), "aria-label": `${tile.text}${can ? " (playable)" : ""}` },
            h("kbd", String(index + 1)),
            faceOf(tile),
          );
          return button;
        }),
      ),
      view.mustPlay ? h("p.must", `You drew ${view.mustPlay.text}: it must be played now.`) : null,
      view.mustOpenWith ? h("p.must", `You open with ${view.mustOpenWith.text}.`) : null,
    );
  }

  private actions(view: BidView, legal: BidCommand[], names: string[]): HTMLElement {
    const has = (kind: BidCommand["kind"]["case"]) => legal.some((c) => c.kind.case === kind);
    const items: (HTMLElement | null)[] = [];
    const held = this.ctx.match.seats;
    if (view.gate === Gate.START || view.gate === Gate.CONTINUE) {
      const mine = view.decide.filter((s) => held.includes(s));
      items.push(
        mine.length
          ? h("button.primary#ready", { type: "button", onclick: () => this.ready(mine) }, view.gate === Gate.START ? "Start" : "Continue")
          : h("span.waiting", "Waiting for the other player to press…"),
      );
      if (view.lastSettlement && view.gate === Gate.CONTINUE) {
        const s = view.lastSettlement;
        items.push(h("p.settlement", `Round ${s.roundNo}: ${s.seat >= 0 ? `${names[s.seat]} received ${s.transfer}` : "equal blocks, nothing moved"}${s.pips.length ? ` (hand totals ${s.pips.join(" / ")})` : ""}`));
      }
    }
    if (view.auction && (has("passBid") || has("bid") || has("accept"))) items.push(this.auction(view, has, names));
    else if (view.auction) items.push(this.auctionSummary(view, names));
    const opening = legal.some((c) => c.kind.case === "play" && !c.kind.value.end);
    if (opening && this.selected) {
      items.push(h("button.primary#open", { type: "button", onclick: () => this.playAt("") }, "Open with the selected tile"));
    }
    if (has("draw")) items.push(h("button#draw", { type: "button", onclick: () => this.sendBid({ case: "draw", value: {} }) }, "Draw (D)"));
    if (this.seat >= 0 && view.winner < 0) {
      items.push(h("button.danger#resign", { type: "button", onclick: () => confirm("Resign the match?") && this.sendBid({ case: "resign", value: {} }) }, "Resign"));
    }
    const whose = view.decide.length === 1 && view.gate === Gate.NONE ? h("p.turn", `${names[view.decide[0]] ?? ""} to play`) : null;
    return h("div.actions", whose, items);
  }

  private auctionSummary(view: BidView, names: string[]): HTMLElement {
    const a = view.auction!;
    return h("div.auction", h("h4", "Auction"), h("p", a.bidder >= 0 ? `${names[a.bidder]} bids ${a.bid}` : "No bid yet"));
  }

  private auction(view: BidView, has: (k: BidCommand["kind"]["case"]) => boolean, names: string[]): HTMLElement {
    const a = view.auction!;
    const jockey = view.jockey === this.seat;
    const input = h("input#bid-amount", { type: "number", min: String(a.minBid), step: "5", value: String(a.minBid), "aria-label": "bid amount" }) as HTMLInputElement;
    const discount = h("span.discount", "");
    const updateDiscount = () => {
      const amount = Number(input.value);
      discount.textContent = jockey ? `as jockey you would pay ${Math.max(0, amount - JOCKEY_DISCOUNT)} (15 off your own winning bid)` : `you would pay ${amount} if accepted`;
    };
    input.addEventListener("input", updateDiscount);
    updateDiscount();
    const standing = a.bidder >= 0 ? `${names[a.bidder]} bids ${a.bid}; accepting makes them pay ${a.cost}${view.jockey === a.bidder ? " (jockey discount applied)" : ""}` : "No bid yet";
    return h(
      "div.auction",
      h("h4", "Auction for the opening"),
      h("p", standing),
      h(
        "div.auction-buttons",
        has("passBid") ? h("button#pass-bid", { type: "button", onclick: () => this.sendBid({ case: "passBid", value: {} }) }, "Pass (jockey opens free)") : null,
        has("accept") ? h("button#accept", { type: "button", onclick: () => this.sendBid({ case: "accept", value: {} }) }, `Accept (${names[a.bidder] ?? ""} pays ${a.cost})`) : null,
        has("bid")
          ? h(
              "form.bid-form",
              {
                onsubmit: (event: Event) => {
                  event.preventDefault();
                  void this.sendBid({ case: "bid", value: { amount: Number(input.value) } });
                },
              },
              input,
              h("button.primary#bid", { type: "submit" }, a.bidder >= 0 ? "Raise" : "Bid"),
              discount,
            )
          : null,
      ),
    );
  }

  private handover(update: MatchUpdate, seat: number, name: string): HTMLElement {
    const view = update.view?.kind.case === "bid" ? update.view.kind.value : null;
    const names = update.players.map((p) => p.name);
    return h(
      "div.bid-table.handover-screen",
      view ? this.scoreboard(update, view, names) : null,
      h(
        "div.handover",
        h("h3", `Pass the device to ${name}`),
        h("p", "Both clocks are stopped until they reveal their hand."),
        h("button.primary#reveal", { type: "button", onclick: () => void this.ctx.send(seat, { kind: { case: "reveal", value: {} } }) }, `I am ${name}: reveal my hand`),
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
    if (key === "enter") {
      const button = this.root.querySelector<HTMLButtonElement>("#ready, #open, .end-slot.legal");
      if (button) button.click();
      return Boolean(button);
    }
    const slot = [...this.root.querySelectorAll<HTMLElement>(".end-slot.legal")].find((s) => s.querySelector("kbd")?.textContent === key);
    if (slot) return slot.click(), true;
    return false;
  }

  private choose(key: string): void {
    this.selected = this.selected === key ? null : key;
    if (this.screen) this.root.replaceWith(this.render(this.screen));
  }

  private playAt(endText: string): void {
    const view = this.view;
    if (!view || !this.selected) return;
    const play = view.legal.find(
      (c) => c.kind.case === "play" && tileKey(c.kind.value.tile) === this.selected && (c.kind.value.end?.text ?? "") === endText,
    );
    if (play?.kind.case !== "play") return;
    this.selected = null;
    void this.sendBid({ case: "play", value: { tile: play.kind.value.tile, end: play.kind.value.end } });
  }

  private ready(seats: number[]): void {
    for (const seat of seats) void this.ctx.send(seat, { kind: { case: "bid", value: { kind: { case: "ready", value: {} } } } });
  }

  private sendBid(kind: BidKind): Promise<boolean> {
    const seat = this.seat >= 0 ? this.seat : this.ctx.match.seats[0];
    return this.ctx.send(seat, { kind: { case: "bid", value: { kind } } });
  }
}

function faceOf(tile: Tile): HTMLElement {
  return tileFace(tile.low, tile.high, false);
}
