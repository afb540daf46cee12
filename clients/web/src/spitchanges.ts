/**
 * A Spit view brought forward by one step: the last view, the step's events, and what they
 * do not tell (`told`: a SpitView holding only its version, gate and Ready presses). The
 * page's copy of games/spit/changes.py, checked against it on the same steps
 * (tests/web/test_changes.py).
 */
import { clone, create } from "@bufbuild/protobuf";
import {
  CentrePileSchema,
  SpitSideSchema,
  SpitViewSchema,
  StockPileSchema,
  type Card,
  type CentrePile,
  type SpitEvent,
  type SpitSide,
  type SpitView,
} from "./gen/photofinish/game/v1/spit_pb";

export function spitChanged(view: SpitView, events: SpitEvent[], told: SpitView): SpitView {
  const next = clone(SpitViewSchema, view);
  let spat = false;
  for (const event of events) {
    const e = event.kind;
    switch (e.case) {
      case "played": {
        const { seat, stock, pile, card } = e.value;
        takeTop(next.sides[seat], stock);
        next.centre[pile] = centrePile(card, next.centre[pile].size + 1);
        break;
      }
      case "revealed": {
        const { seat, stock, card } = e.value;
        const hidden = next.sides[seat].stock[stock].hidden;
        next.sides[seat].stock[stock] = create(StockPileSchema, { top: card, hidden: hidden - 1 });
        break;
      }
      case "moved": {
        const { seat, src, dst, card } = e.value;
        takeTop(next.sides[seat], src);
        next.sides[seat].stock[dst] = create(StockPileSchema, { top: card, hidden: 0 });
        break;
      }
      case "spat": {
        const { seat, pile, card } = e.value;
        next.sides[seat].spitCount -= 1;
        next.centre[pile] = centrePile(card, next.centre[pile].size + 1);
        spat = true;
        break;
      }
      case "reshuffled":
        e.value.spitCounts.forEach((count, seat) => (next.sides[seat].spitCount = count));
        next.centre = [centrePile(undefined, 0), centrePile(undefined, 0)];
        spat = true; // a spit happens at once, even with no card left to turn
        break;
      case "dealt": {
        const { seat, stock, spitCount } = e.value;
        next.sides[seat] = create(SpitSideSchema, { stock: stock.map((p) => clone(StockPileSchema, p)), spitCount });
        next.centre = [centrePile(undefined, 0), centrePile(undefined, 0)];
        next.roundNo = e.value.roundNo;
        break;
      }
      case "paused":
        next.paused = true;
        break;
      case "resumed":
        next.paused = false;
        break;
      case "ended":
        next.winner = e.value.winner;
        next.termination = e.value.termination;
        next.paused = false;
        break;
    }
  }
  next.version = told.version;
  next.gate = told.gate;
  next.mustPress = [...told.mustPress];
  if (spat) next.spits += 1;
  return next;
}

/** The top of stock pile `index` gone: the card beneath stays face down until revealed. */
function takeTop(side: SpitSide, index: number): void {
  side.stock[index] = create(StockPileSchema, { hidden: side.stock[index].hidden });
}

function centrePile(top: Card | undefined, size: number): CentrePile {
  return create(CentrePileSchema, { top, size });
}
