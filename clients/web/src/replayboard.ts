// A replay's board at one step, drawn from every seat's view (the match is over: both
// hands are shown). Nothing here can be clicked to play: it is a record, not a table.
import { cardFace } from "./cards";
import { h } from "./dom";
import { msg, type Words } from "./i18n/messages";
import type { LogEntry } from "./gen/photofinish/arbitration/v1/log_pb";
import type { BidView } from "./gen/photofinish/game/v1/bid_pb";
import type { View } from "./gen/photofinish/game/v1/game_pb";
import type { SpitView } from "./gen/photofinish/game/v1/spit_pb";
import { layBoard } from "./bidboard";
import { tileFace } from "./tiles";

const NO_SLOTS = { onEnd: () => undefined, legalEnds: new Set<string>(), labels: new Map<string, string>() };

/** The pile a step is about (a landing or a race), to mark it; -1 for none. */
function markedPile(entry: LogEntry | undefined): number {
  if (entry?.race) return entry.race.pile;
  if (entry?.landing?.claim) return entry.landing.slot;
  return -1;
}

/** The board after a step, `bottom` the seat drawn nearest the reader. */
export function replayBoard(views: View[], entry: LogEntry | undefined, names: Words[], bottom: number): HTMLElement {
  const first = views[0]?.kind;
  if (first?.case === "spit") return spitBoard(first.value, entry, names, bottom);
  if (first?.case === "bid") {
    const hands = views.map((v) => (v.kind.case === "bid" ? v.kind.value : null));
    return bidBoard(first.value, hands, names, bottom);
  }
  return h("div.replay-board", msg("replay.no_board"));
}

function spitBoard(view: SpitView, entry: LogEntry | undefined, names: Words[], bottom: number): HTMLElement {
  const marked = markedPile(entry);
  const side = (seat: number) => {
    const s = view.sides[seat];
    return h(
      `div.replay-side${seat === bottom ? ".near" : ""}`,
      { dataset: { seat: String(seat) } },
      h("div.side-name", msg("replay.spit_side", { name: names[seat] ?? msg("names.seat", { number: seat + 1 }), count: s?.spitCount ?? 0 })),
      h(
        "div.replay-stock",
        (s?.stock ?? []).map((pile, index) =>
          h("div.replay-pile", { dataset: { stock: String(index) } }, cardFace(pile.top), h("span.under", pile.hidden ? `+${pile.hidden}` : "")),
        ),
      ),
    );
  };
  return h(
    "div.replay-board.spit-replay",
    side(1 - bottom),
    h(
      "div.replay-centre",
      view.centre.map((pile, index) =>
        h(
          `div.replay-pile.centre${index === marked ? ".marked" : ""}`,
          { dataset: { pile: String(index) } },
          h("div.pile-label", msg("spit.pile_short", { pile: index + 1, size: pile.size })),
          cardFace(pile.top),
        ),
      ),
    ),
    side(bottom),
    h("p.replay-round", msg(view.paused ? "replay.spit_round_paused" : "replay.spit_round", { round: view.roundNo, spits: view.spits })),
  );
}

function bidBoard(view: BidView, hands: (BidView | null)[], names: Words[], bottom: number): HTMLElement {
  const hand = (seat: number) =>
    h(
      `div.replay-hand${seat === bottom ? ".near" : ""}`,
      { dataset: { seat: String(seat) } },
      h("div.side-name", msg(view.jockey === seat ? "replay.bid_side_jockey" : "replay.bid_side", { name: names[seat] ?? msg("names.seat", { number: seat + 1 }), chips: view.balances[seat] ?? 0 })),
      h("div.replay-tiles", (hands[seat]?.hand ?? []).map((t) => tileFace(t.low, t.high, false, { "data-tile": t.text }))),
    );
  const a = view.auction;
  const round = { round: view.roundNo, boneyard: view.boneyardCount, ends: view.endSum };
  const line = !a ? msg("replay.bid_round", round) : a.bid ? msg("replay.bid_round_bid", { ...round, name: names[a.bidder] ?? "?", bid: a.bid }) : msg("replay.bid_round_no_bid", round);
  return h(
    "div.replay-board.bid-replay",
    hand(1 - bottom),
    h("div.board-wrap.replay-line", layBoard(view.board, [], NO_SLOTS)),
    h("p.replay-round", line),
    hand(bottom),
  );
}
