// The Spit table: own stock piles, both centre piles, the opponent's face-up cards.
// Play by clicking a card then a pile, by dragging, by double-clicking, or by keyboard.
import type { Refusal } from "./api";
import { adjacent, cardFace, cardName } from "./cards";
import { h, KeptControls } from "./dom";
import { msg, t, type Key, type Message, type Words } from "./i18n/messages";
import type { Race } from "./gen/photofinish/arbitration/v1/arbitration_pb";
import { Gate, type Event } from "./gen/photofinish/game/v1/game_pb";
import type { SpitPlayed, SpitRoundEnded, SpitView } from "./gen/photofinish/game/v1/spit_pb";
import { roundEndText, takenSizes, type RoundEnd } from "./spitroundend";
import { raceKey, type Board, type Command, type MatchContext } from "./match";
import { playerName, seatName } from "./names";
import type { Screen } from "./perspective";
import { rulesHelp } from "./help";
import { glide, spotsOf, type Spot } from "./motion";


// How long a lost race marks its pile and the refused card (the CSS animations' length).
const RACE_MARK_MS = 1000;

// Refusals of a Spit command in a player's words, by reason (plays are worded from the card).
const REFUSALS: Record<string, Key> = {
  empty_stock: "reason.empty_stock",
  space_not_empty: "reason.space_not_empty",
  nothing_to_uncover: "reason.nothing_to_uncover",
  not_blocked: "reason.not_blocked",
  already_pressed: "reason.already_pressed",
  paused: "reason.paused",
  not_pausable: "reason.not_pausable",
  match_over: "match.over",
};

/** The race being marked on the table: which pile, which refused card, since when. */
interface RaceMark {
  key: string;
  pile: number;
  seat: number;
  card: string;
  since: number;
}

export class SpitBoard implements Board {
  private readonly kept = new KeptControls(); // its buttons, the same nodes on every drawing
  private view: SpitView | null = null;
  private seat = 0;
  private selected: number | null = null;
  private root: HTMLElement = h("div");
  private mark: RaceMark | null = null;
  private roundEnd: RoundEnd | null = null;

  constructor(private readonly ctx: MatchContext) {}

  render(screen: Screen): HTMLElement {
    if (screen.kind !== "board" || screen.update.view?.kind.case !== "spit") return h("div", "…");
    const view = screen.update.view.kind.value;
    this.noteRoundEnd(screen.update.events, this.view, view);
    this.view = view;
    this.seat = screen.viewer >= 0 ? screen.viewer : this.ctx.match.seats[0];
    const own = view.sides[this.seat];
    const other = view.sides[1 - this.seat];
    const names = screen.update.players.map((p) => playerName(p));
    if (this.selected !== null && !own?.stock[this.selected]?.top) this.selected = null;
    const before = spotsOf(this.root);
    const focused = focusedPlace(this.root);
    this.root = h(
      "div.spit-table",
      this.side(other, 1 - this.seat, names[1 - this.seat] ?? "", false),
      h(
        "div.centre",
        this.roundEndPanel(view, names),
        view.centre.map((pile, index) =>
          h(
            "button.pile-slot",
            {
              type: "button",
              dataset: { pile: String(index) },
              "aria-label": msg("spit.pile_label", { pile: index + 1, top: pile.top ? cardName(pile.top) : msg("spit.empty"), size: pile.size }),
              onclick: () => this.playOn(index),
            },
            h("span.pile-label", { "aria-hidden": "true" }, msg("spit.pile_short", { pile: index + 1, size: pile.size })),
            cardFace(pile.top, { "data-drop-pile": String(index), "data-place": `pile-${index}` }),
          ),
        ),
      ),
      this.side(own, this.seat, this.ctx.match.seats.includes(this.seat) ? seatName(screen.update.players[this.seat], true, "") : (names[this.seat] ?? ""), true),
      this.controls(view),
      h("p.keys-help", msg("spit.keys")),
      rulesHelp("spit"),
    );
    this.markRace(screen.update.race);
    const root = this.root;
    queueMicrotask(() => this.settle(root, before, focused)); // once the new table is on the page
    return this.root;
  }

  /** On the drawn table: focus back where the player had it, and the moved cards glide. */
  private settle(root: HTMLElement, before: Spot[], focused: string | null): void {
    if (!root.isConnected) return;
    if (focused) root.querySelector<HTMLElement>(focused)?.focus({ preventScroll: true });
    glide(before, root);
  }

  /**
   * Keep the round end an update tells, once per round (a later update may repeat the
   * step's events). The sizes come from the table just before the ending play, when that
   * is the view this page drew last, and only when they add up to the event's counts.
   */
  private noteRoundEnd(events: Event[], before: SpitView | null, view: SpitView): void {
    let ended: SpitRoundEnded | undefined;
    let played: SpitPlayed | undefined;
    for (const { kind } of events) {
      if (kind.case !== "spit") continue;
      if (kind.value.kind.case === "roundEnded") ended = kind.value.kind.value;
      if (kind.value.kind.case === "played") played = kind.value.kind.value;
    }
    if (!ended || ended.roundNo === this.roundEnd?.ended.roundNo) return;
    const next = before?.version === view.version - 1n; // `before` is the table the play ended
    this.roundEnd = { ended, sizes: next && before && played ? takenSizes(ended, before, played.pile) : null };
  }

  /** At the next round's Ready gate, over the emptied centre: who went out, who took what. */
  private roundEndPanel(view: SpitView, names: Words[]): HTMLElement | null {
    const end = this.roundEnd;
    if (!end || view.roundNo !== end.ended.roundNo + 1 || !view.mustPress.length || view.winner >= 0) return null;
    const seats = this.ctx.match.seats;
    const mine = seats.length === 1 ? seats[0] : -1; // -1: both seats on this device
    const [title, text] = roundEndText(end, (seat) => (seat === mine ? null : names[seat] || msg("names.seat", { number: seat + 1 })));
    return h("div.spit-round-end", { role: "status" }, h("h3", title), h("p", text));
  }

  /** A play refused by the rules, worded from its card and the pile top on the table. */
  refusalText(why: Refusal): Message | undefined {
    const card = why.metadata["label"];
    const pile = Number(why.metadata["claim_slot"] ?? "-1");
    const top = this.view?.centre[pile]?.top?.text;
    if (card && why.reason === "not_adjacent") return top ? msg("spit.refusal.not_adjacent", { card, top }) : msg("spit.refusal.empty_pile", { card });
    if (card && why.reason === "pile_top_changed") return msg("spit.refusal.pile_top_changed", { card, pile: pile + 1, top: top ?? msg("spit.empty") });
    if (why.reason === "at_gate") return msg(this.view?.gate === Gate.SPIT ? "spit.refusal.wait_spit" : "spit.refusal.press_ready");
    const key = REFUSALS[why.reason];
    return key ? msg(key) : undefined;
  }

  /**
   * Flash the pile a race was for and the card that lost it, for RACE_MARK_MS from the
   * first update that tells it; a redraw meanwhile carries the flash on where it was.
   */
  private markRace(race: Race | undefined): void {
    const now = performance.now();
    if (race && this.mark?.key !== raceKey(race)) {
      this.mark = { key: raceKey(race), pile: race.pile, seat: race.refusedSeat, card: race.refusedCard, since: now };
    }
    const mark = this.mark;
    if (!mark || now - mark.since >= RACE_MARK_MS) return;
    const delay = `${Math.round(mark.since - now)}ms`;
    const pile = this.root.querySelector<HTMLElement>(`[data-pile="${mark.pile}"]`);
    const card = this.root.querySelector<HTMLElement>(`.spit-side[data-seat="${mark.seat}"] .card[data-piece="${CSS.escape(mark.card)}"]`);
    for (const [element, mood] of [[pile, "race-landed"], [card, "race-refused"]] as const) {
      element?.classList.add(mood);
      element?.style.setProperty("animation-delay", delay);
    }
  }

  private side(side: SpitView["sides"][number] | undefined, seat: number, name: Words, mine: boolean): HTMLElement {
    const stock = side?.stock ?? [];
    return h(
      `div.spit-side${mine ? ".mine" : ".theirs"}`,
      { dataset: { seat: String(seat) } },
      h("div.side-head", h("b", name), h("span.spit-count", msg("spit.spit_pile", { count: side?.spitCount ?? 0 }))),
      h(
        "div.stock-row",
        stock.map((pile, index) => {
          const place = { "data-place": `stock-${seat}-${index}` };
          const space = pile.top ? {} : { "aria-label": msg("spit.empty_space", { space: index + 1 }) };
          const face = cardFace(pile.top, mine ? { ...place, ...space, draggable: "false" } : place, mine);
          if (mine) this.wireCard(face, index, Boolean(pile.top));
          if (mine && this.selected === index) face.classList.add("selected");
          return h(
            "div.stock",
            { dataset: mine ? { stock: String(index) } : { theirStock: String(index) } },
            h("span.stock-key", mine ? String(index + 1) : ""),
            face,
            h("span.hidden-count", pile.hidden ? `+${pile.hidden}` : ""),
          );
        }),
      ),
    );
  }

  private wireCard(face: HTMLElement, index: number, filled: boolean): void {
    face.addEventListener("click", (event) => {
      event.stopPropagation();
      if (!filled) return void this.moveTo(index);
      this.selected = this.selected === index ? null : index;
      this.highlight();
    });
    if (!filled) return;
    face.addEventListener("dblclick", () => this.autoPlay(index));
    face.addEventListener("pointerdown", (event) => this.drag(event, face, index));
  }

  /** Drag a card: it follows the pointer, and lands on the pile or space under it. */
  private drag(event: PointerEvent, face: HTMLElement, index: number): void {
    if (event.button !== 0) return;
    const startX = event.clientX;
    const startY = event.clientY;
    let moved = false;
    face.setPointerCapture(event.pointerId);
    const move = (e: PointerEvent) => {
      const dx = e.clientX - startX;
      const dy = e.clientY - startY;
      if (!moved && Math.hypot(dx, dy) < 6) return;
      moved = true;
      face.classList.add("dragging");
      face.style.transform = `translate(${dx}px, ${dy}px)`;
    };
    const up = (e: PointerEvent) => {
      face.removeEventListener("pointermove", move);
      face.removeEventListener("pointerup", up);
      face.style.transform = "";
      face.classList.remove("dragging");
      if (!moved) return;
      face.style.visibility = "hidden";
      const below = document.elementFromPoint(e.clientX, e.clientY);
      face.style.visibility = "";
      const pile = below?.closest<HTMLElement>("[data-pile]");
      const space = below?.closest<HTMLElement>("[data-stock]");
      if (pile) void this.play(index, Number(pile.dataset.pile));
      else if (space && Number(space.dataset.stock) !== index) void this.move(index, Number(space.dataset.stock));
    };
    face.addEventListener("pointermove", move);
    face.addEventListener("pointerup", up);
  }

  private controls(view: SpitView): HTMLElement {
    const buttons: HTMLElement[] = [];
    const mustPress = view.mustPress.filter((s) => this.ctx.match.seats.includes(s));
    if ((view.gate === Gate.START || view.gate === Gate.CONTINUE) && mustPress.length) {
      buttons.push(this.kept.get("ready", () => h("button.primary#ready", { type: "button", onclick: () => this.ready() }, msg("spit.ready"))));
    } else if (view.gate === Gate.START || view.gate === Gate.CONTINUE) {
      buttons.push(h("span.waiting", msg("spit.waiting_ready")));
    }
    if (view.gate === Gate.SPIT) {
      buttons.push(this.kept.get("spit", () => h("button.primary#spit", { type: "button", onclick: () => this.spit() }, msg("spit.spit"))));
    }
    if (view.pausable && view.winner < 0) {
      buttons.push(
        view.paused
          ? this.kept.get("resume", () => h("button#resume", { type: "button", onclick: () => this.pause() }, msg("spit.resume")))
          : this.kept.get("pause", () => h("button#pause", { type: "button", onclick: () => this.pause() }, h("span.pause-icon", { "aria-hidden": "true" }), msg("spit.pause"))),
      );
    }
    if (view.winner < 0) {
      buttons.push(this.kept.get("resign", () => h("button.danger#resign", { type: "button", onclick: () => this.resign() }, msg("match.resign"))));
    }
    const paused = view.paused ? h("div.paused-banner", h("span.pause-icon", { "aria-hidden": "true" }), msg("spit.paused")) : null;
    return h("div.controls", paused, buttons, h("span.round", msg("match.round", { round: view.roundNo })));
  }

  key(event: KeyboardEvent): boolean {
    const key = event.key.toLowerCase();
    // Enter and Space press the focused button; on a card or pile only in play (at a gate they
    // are Ready or Spit, as the keys help says: no card can go then).
    const pressed = event.target instanceof HTMLButtonElement ? event.target : null;
    const atGate = this.view?.gate === Gate.SPIT || this.view?.gate === Gate.START || this.view?.gate === Gate.CONTINUE;
    if ((key === "enter" || key === " ") && pressed && !(atGate && pressed.matches(".card, .pile-slot"))) return false;
    if (/^[1-5]$/.test(key)) {
      const index = Number(key) - 1;
      const filled = Boolean(this.view?.sides[this.seat]?.stock[index]?.top);
      if (this.selected !== null && !filled) void this.moveTo(index);
      else if (filled) {
        this.selected = index;
        this.highlight();
      }
      return true;
    }
    if (key === "arrowleft" || key === "q") return this.playOn(0), true;
    if (key === "arrowright" || key === "w") return this.playOn(1), true;
    if (key === "escape") return (this.selected = null), this.highlight(), true;
    if (key === "p" && this.view?.pausable) return void this.pause(), true;
    if (key === "enter" || key === " ") {
      if (this.view?.gate === Gate.SPIT) void this.spit();
      else if (this.view?.gate === Gate.START || this.view?.gate === Gate.CONTINUE) void this.ready();
      else return false;
      return true;
    }
    return false;
  }

  private highlight(): void {
    for (const stock of this.root.querySelectorAll<HTMLElement>("[data-stock]")) {
      stock.querySelector(".card")?.classList.toggle("selected", Number(stock.dataset.stock) === this.selected);
    }
    const top = this.selected === null ? undefined : this.view?.sides[this.seat]?.stock[this.selected]?.top;
    for (const slot of this.root.querySelectorAll<HTMLElement>("[data-pile]")) {
      const pileTop = this.view?.centre[Number(slot.dataset.pile)]?.top;
      slot.classList.toggle("can-take", Boolean(top && pileTop && adjacent(top.rank, pileTop.rank)));
    }
  }

  private playOn(pile: number): void {
    if (this.selected !== null) void this.play(this.selected, pile);
  }

  private moveTo(space: number): void {
    if (this.selected !== null && this.selected !== space) void this.move(this.selected, space);
  }

  /** Double-click: play on the first centre pile the card fits. */
  private autoPlay(index: number): void {
    const top = this.view?.sides[this.seat]?.stock[index]?.top;
    const pile = this.view?.centre.findIndex((p) => p.top && top && adjacent(top.rank, p.top.rank)) ?? -1;
    if (pile >= 0) void this.play(index, pile);
  }

  private play(stock: number, pile: number): Promise<boolean> {
    this.selected = null;
    this.highlight(); // a refused card must not look picked still: nothing redraws the table
    const onto = this.view?.centre[pile]?.top?.rank;
    return this.send({ kind: { case: "spit", value: { kind: { case: "play", value: { stock, pile, onto } } } } });
  }

  private move(src: number, dst: number): Promise<boolean> {
    this.selected = null;
    this.highlight();
    return this.send({ kind: { case: "spit", value: { kind: { case: "move", value: { src, dst } } } } });
  }

  private ready(): void {
    const seats = (this.view?.mustPress ?? []).filter((s) => this.ctx.match.seats.includes(s));
    for (const seat of seats) void this.ctx.send(seat, { kind: { case: "spit", value: { kind: { case: "ready", value: {} } } } });
  }

  private spit(): Promise<boolean> {
    const number = (this.view?.spits ?? 0) + 1;
    return this.send({ kind: { case: "spit", value: { kind: { case: "spit", value: { number } } } } });
  }

  private pause(): Promise<boolean> {
    const command: Command = this.view?.paused
      ? { kind: { case: "spit", value: { kind: { case: "resume", value: {} } } } }
      : { kind: { case: "spit", value: { kind: { case: "pause", value: {} } } } };
    return this.send(command);
  }

  private resign(): void {
    if (confirm(t("spit.resign_confirm"))) void this.send({ kind: { case: "spit", value: { kind: { case: "resign", value: {} } } } });
  }

  private send(command: Command): Promise<boolean> {
    return this.ctx.send(this.seat, command);
  }
}

/** A selector for the control of `root` that has the focus, to find it again after a redraw. */
function focusedPlace(root: HTMLElement): string | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !root.contains(active)) return null;
  if (active.id) return `#${CSS.escape(active.id)}`;
  const stock = active.closest<HTMLElement>("[data-stock]")?.dataset.stock;
  if (stock !== undefined) return `[data-stock="${stock}"] .card`;
  const pile = active.closest<HTMLElement>("[data-pile]")?.dataset.pile;
  return pile === undefined ? null : `[data-pile="${pile}"]`;
}
