/**
 * A Spectacular Bid view brought forward by one step: the last view, the step's events as
 * its viewer heard them, and what they do not tell (`told`: a BidView holding only its
 * version, the decision, the auction and the viewer's own part of the decision). The board
 * follows the rules' geometry (games/bid/board.py: `place`, the counting); the page's copy
 * of games/bid/changes.py, checked against it on the same steps (tests/web/test_changes.py).
 */
import { clone, create } from "@bufbuild/protobuf";
import {
  BidAuctionSchema,
  BidBoardSchema,
  BidCommandSchema,
  BidSettlementSchema,
  BidViewSchema,
  CountedSchema,
  EndSchema,
  OpenPointSchema,
  PlacementSchema,
  SettlementKind,
  TilePort,
  TileSchema,
  type BidBoard,
  type BidEvent,
  type BidSettlement,
  type BidView,
  type Counted,
  type End,
  type Tile,
} from "./gen/photofinish/game/v1/bid_pb";

const PORT_NAMES: Record<number, string> = {
  [TilePort.LOW]: "low",
  [TilePort.HIGH]: "high",
  [TilePort.STRAIGHT_A]: "straight-a",
  [TilePort.STRAIGHT_B]: "straight-b",
  [TilePort.BRANCH_A]: "branch-a",
  [TilePort.BRANCH_B]: "branch-b",
};

export function bidChanged(view: BidView, events: BidEvent[], told: BidView): BidView {
  const next = clone(BidViewSchema, view);
  let settled: BidSettlement | undefined;
  let line = new Line(next.board ?? create(BidBoardSchema), next.openPoints.map((p) => p.end!), next.endSum);
  for (const event of events) {
    const e = event.kind;
    switch (e.case) {
      case "dealt":
        next.roundNo = e.value.roundNo;
        next.boneyardCount = e.value.boneyardCount;
        next.handCounts = [e.value.handSize, e.value.handSize];
        next.hand = e.value.hand.map((t) => tile(t.low, t.high));
        line = new Line(create(BidBoardSchema), [], 0);
        if (settled) next.jockey = settled.kind === SettlementKind.WENT_OUT ? settled.seat : -1;
        break;
      case "played": {
        const { seat, tile: played, end, points } = e.value;
        line.place(played!, end);
        next.handCounts[seat] -= 1;
        if (seat === next.seat) next.hand = next.hand.filter((t) => !same(t, played!));
        pay(next.balances, seat, points);
        break;
      }
      case "drew": {
        const { seat, count, tiles } = e.value;
        next.handCounts[seat] += count;
        next.boneyardCount -= count;
        if (seat === next.seat) next.hand.push(...tiles.map((t) => tile(t.low, t.high)));
        break;
      }
      case "bidAccepted":
        pay(next.balances, 1 - e.value.bidder, e.value.paid);
        break;
      case "roundEnded":
        settled = e.value.settlement!;
        next.lastSettlement = clone(BidSettlementSchema, settled);
        if (settled.seat >= 0) pay(next.balances, settled.seat, settled.transfer);
        break;
      case "matchEnded":
        next.winner = e.value.winner;
        next.termination = e.value.termination;
        break;
    }
  }
  next.hand.sort((a, b) => a.low - b.low || a.high - b.high);
  next.board = line.board;
  next.openPoints = line.ends.map((end) => create(OpenPointSchema, { end, value: valueAt(end) }));
  next.counted = line.counted();
  next.endSum = line.total;
  next.version = told.version;
  next.decide = [...told.decide];
  next.fresh = told.fresh;
  next.gate = told.gate;
  next.auction = told.auction && clone(BidAuctionSchema, told.auction);
  next.mustPlay = told.mustPlay && tile(told.mustPlay.low, told.mustPlay.high);
  next.mustOpenWith = told.mustOpenWith && tile(told.mustOpenWith.low, told.mustOpenWith.high);
  next.legal = told.legal.map((c) => clone(BidCommandSchema, c));
  return next;
}

/** The round's line of play: the board, its open points in order, and the end sum. */
class Line {
  constructor(
    readonly board: BidBoard,
    public ends: End[],
    public total: number,
  ) {}

  /** `played` joins at `at` (unset: it opens the round); the play is the rules' to check. */
  place(played: Tile, at: End | undefined): void {
    const joining = tile(played.low, played.high);
    const double = joining.low === joining.high;
    if (this.board.placements.length === 0 || !at) {
      const ports = double ? [TilePort.STRAIGHT_A, TilePort.STRAIGHT_B] : [TilePort.LOW, TilePort.HIGH];
      this.ends = ports.map((port) => end(joining, port));
      if (double) this.board.spinner = joining;
      this.board.placements.push(create(PlacementSchema, { tile: joining }));
      this.total = joining.low + joining.high;
      return;
    }
    const point = this.ends.find((e) => same(e.tile!, at.tile!) && e.port === at.port)!;
    const value = valueAt(point);
    let via: TilePort;
    let fresh: End;
    if (double) {
      via = TilePort.STRAIGHT_A;
      fresh = end(joining, TilePort.STRAIGHT_B);
      if (!this.board.spinner) this.board.spinner = joining;
    } else if (joining.low === value) {
      via = TilePort.LOW;
      fresh = end(joining, TilePort.HIGH);
    } else {
      via = TilePort.HIGH;
      fresh = end(joining, TilePort.LOW);
    }
    this.total = this.coveringTotal(point) + (double ? joining.low + joining.high : joining.low === value ? joining.high : joining.low);
    const spinner = this.board.spinner;
    this.ends[this.ends.indexOf(point)] = fresh;
    if (
      !this.board.branchesOpen &&
      spinner &&
      straight(point.port) &&
      same(point.tile!, spinner) &&
      !this.ends.some((e) => same(e.tile!, spinner) && straight(e.port))
    ) {
      // Both main arms filled: the side branches open (rules §3).
      this.board.branchesOpen = true;
      this.ends.push(end(spinner, TilePort.BRANCH_A), end(spinner, TilePort.BRANCH_B));
    }
    this.board.placements.push(create(PlacementSchema, { tile: joining, on: end(point.tile!, point.port), via }));
  }

  /** The end sum once `point` is covered, before the joining tile counts. */
  private coveringTotal(point: End): number {
    const covered = point.tile!;
    if (covered.low !== covered.high) return this.total - valueAt(point);
    const spinner = this.board.spinner;
    if (!spinner || !same(covered, spinner)) return this.total - (covered.low + covered.high);
    if (this.board.branchesOpen) return this.total; // an unused branch counted 0
    const otherArmOpen = this.ends.some((e) => same(e.tile!, covered) && straight(e.port) && e.port !== point.port);
    return otherArmOpen ? this.total : this.total - (covered.low + covered.high);
  }

  /** What makes up the end sum, in board order (the spinner's halves once). */
  counted(): Counted[] {
    const counted: Counted[] = [];
    const spinner = this.board.spinner;
    let spinnerCounted = false;
    for (const e of this.ends) {
      const t = e.tile!;
      if (t.low !== t.high) counted.push(create(CountedSchema, { tile: tile(t.low, t.high), points: valueAt(e) }));
      else if (!spinner || !same(t, spinner)) counted.push(create(CountedSchema, { tile: tile(t.low, t.high), points: t.low + t.high }));
      else if (!this.board.branchesOpen && !spinnerCounted) {
        counted.push(create(CountedSchema, { tile: tile(t.low, t.high), points: t.low + t.high }));
        spinnerCounted = true;
      }
    }
    return counted;
  }
}

/** Whether `port` is one of a double's main arms. */
function straight(port: TilePort): boolean {
  return port === TilePort.STRAIGHT_A || port === TilePort.STRAIGHT_B;
}

/** The number a tile must show to join at `e`. */
function valueAt(e: End): number {
  return e.port === TilePort.LOW ? e.tile!.low : e.tile!.high;
}

function tile(a: number, b: number): Tile {
  const [low, high] = a <= b ? [a, b] : [b, a];
  return create(TileSchema, { low, high, text: `[${low}|${high}]` });
}

function end(t: Tile, port: TilePort): End {
  const named = tile(t.low, t.high);
  return create(EndSchema, { tile: named, port, text: `${named.text}:${PORT_NAMES[port]}` });
}

function same(a: Tile, b: Tile): boolean {
  return a.low === b.low && a.high === b.high;
}

/** `amount` moves to `to` from the other seat. */
function pay(balances: number[], to: number, amount: number): void {
  balances[to] += amount;
  balances[1 - to] -= amount;
}
