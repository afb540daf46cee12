// The line of play laid out around its centre: the spinner (or the opening tile) in the
// middle, the main arms left and right, the spinner's branches up and down. Each arm is a
// chain; its tip carries the open point, if any, as a slot a tile can be played on. An arm
// too long for the page turns back beside itself in runs, as tiles do at a table's edge,
// each into a corner of its own: left arm down, down branch right, right arm up, up branch left.
import { create } from "@bufbuild/protobuf";
import { h } from "./dom";
import { msg, type Key, type Message } from "./i18n/messages";
import { BidBoardSchema, PlacementSchema, TilePort, type BidBoard, type End, type OpenPoint, type Tile } from "./gen/photofinish/game/v1/bid_pb";
import { tileFace } from "./tiles";

type Direction = "left" | "right" | "up" | "down";

interface Link {
  tile: string;
  port: TilePort; // the port of `tile` this link uses
  other: string;
  otherPort: TilePort;
}

interface InArm {
  tile: Tile;
  inner: number; // the half facing the centre
  outer: number;
}

export const tileKey = (tile: Tile | undefined): string => (tile ? `${Math.min(tile.low, tile.high)}|${Math.max(tile.low, tile.high)}` : "");

const PORT_DIRECTION: Partial<Record<TilePort, Direction>> = {
  [TilePort.LOW]: "left",
  [TilePort.HIGH]: "right",
  [TilePort.STRAIGHT_A]: "left",
  [TilePort.STRAIGHT_B]: "right",
  [TilePort.BRANCH_A]: "up",
  [TilePort.BRANCH_B]: "down",
};

const PORT_NAMES: Partial<Record<TilePort, Key>> = {
  [TilePort.LOW]: "bid.port.low",
  [TilePort.HIGH]: "bid.port.high",
  [TilePort.STRAIGHT_A]: "bid.port.straight_a",
  [TilePort.STRAIGHT_B]: "bid.port.straight_b",
  [TilePort.BRANCH_A]: "bid.port.branch_a",
  [TilePort.BRANCH_B]: "bid.port.branch_b",
};

/** An end in words, as the engine writes it ("[3|5]:low"), its port named by the catalog. */
export function endName(end: End): Message | string {
  const port = PORT_NAMES[end.port];
  return port && end.tile ? msg("bid.end", { tile: end.tile.text, port: msg(port) }) : end.text;
}

function innerHalf(tile: Tile, port: TilePort): number {
  if (port === TilePort.HIGH) return Math.max(tile.low, tile.high);
  return Math.min(tile.low, tile.high);
}

export interface BoardSlots {
  /** Called with an open point's id when its slot is clicked. */
  onEnd(endText: string): void;
  /** Open points (by id) the selected tile may be played on. */
  legalEnds: Set<string>;
  /** Letters shown on the open points for keyboard play, by id. */
  labels: Map<string, string>;
}

/** How many tiles one run of a main arm, or of a branch, holds before the arm turns. */
export interface Runs {
  main: number;
  branch: number;
}

export const STRAIGHT: Runs = { main: Infinity, branch: Infinity };

const BACK: Record<Direction, Direction> = { left: "right", right: "left", up: "down", down: "up" };

/** The board, its arms in runs as `runs` says. */
export function layBoard(board: BidBoard | undefined, openPoints: OpenPoint[], slots: BoardSlots, runs: Runs = STRAIGHT): HTMLElement {
  const placements = board?.placements ?? [];
  if (placements.length === 0) return h("div.domino-board.empty", h("p.board-hint", msg("bid.board_empty")));
  const tiles = new Map<string, Tile>();
  const links: Link[] = [];
  for (const placement of placements) {
    if (!placement.tile) continue;
    const key = tileKey(placement.tile);
    tiles.set(key, placement.tile);
    if (placement.on?.tile) {
      const parent = tileKey(placement.on.tile);
      links.push({ tile: parent, port: placement.on.port, other: key, otherPort: placement.via });
      links.push({ tile: key, port: placement.via, other: parent, otherPort: placement.on.port });
    }
  }
  const centre = board?.spinner ? tileKey(board.spinner) : tileKey(placements[0].tile);
  const arms: Record<Direction, InArm[]> = { left: [], right: [], up: [], down: [] };
  const armOf = new Map<string, Direction>([[centre, "left"]]);
  for (const link of links.filter((l) => l.tile === centre)) {
    const direction = PORT_DIRECTION[link.port] ?? "right";
    let previous = centre;
    let current = link.other;
    let entry = link.otherPort;
    for (;;) {
      const tile = tiles.get(current);
      if (!tile) break;
      const inner = innerHalf(tile, entry);
      const outer = tile.low === tile.high ? inner : tile.low + tile.high - inner;
      arms[direction].push({ tile, inner, outer });
      armOf.set(current, direction);
      const next = links.find((l) => l.tile === current && l.other !== previous);
      if (!next) break;
      previous = current;
      current = next.other;
      entry = next.otherPort;
    }
  }
  const tips: Record<Direction, OpenPoint[]> = { left: [], right: [], up: [], down: [] };
  for (const point of openPoints) {
    const key = tileKey(point.end?.tile);
    const direction = key === centre ? PORT_DIRECTION[point.end?.port ?? TilePort.UNSPECIFIED] : armOf.get(key);
    if (direction) tips[direction].push(point);
  }
  const centreTile = tiles.get(centre);
  const isSpinner = Boolean(board?.spinner);
  const onBoard = { "data-piece": centre, "data-place": "board" }; // for the glide (motion.ts)
  const centreFace = centreTile
    ? centreTile.low === centreTile.high
      ? tileFace(centreTile.low, centreTile.high, true, { class: `tile v${isSpinner ? " spinner" : ""}`, ...onBoard })
      : tileFace(centreTile.low, centreTile.high, false, onBoard)
    : h("span");
  const slot = (point: OpenPoint) => {
    const id = point.end?.text ?? "";
    const legal = slots.legalEnds.has(id);
    return h(
      `button.end-slot${legal ? ".legal" : ""}`,
      {
        type: "button",
        "data-end": id,
        "aria-label": msg("bid.open_end", { end: point.end ? endName(point.end) : id, value: point.value }),
        disabled: !legal,
        onclick: () => slots.onEnd(id),
      },
      h("span.end-value", String(point.value)),
      slots.labels.has(id) ? h("kbd", slots.labels.get(id) ?? "") : null,
    );
  };
  const arm = (direction: Direction) => {
    const run = direction === "left" || direction === "right" ? runs.main : runs.branch;
    return layArm(direction, arms[direction], tips[direction].map(slot), run);
  };
  return h(
    "div.board-view",
    h("div.domino-board", arm("up"), arm("left"), h("div.centre-tile", { "data-tile": centre }, centreFace), arm("right"), arm("down")),
    isSpinner ? h("p.spinner-note", msg(board?.branchesOpen ? "bid.spinner_open" : "bid.spinner_closed")) : null,
  );
}

/**
 * An arm as runs of at most `run` tiles, outward: the first from the centre, each next one
 * beside the last going back the other way (`.turns`, placed in the arm's corner); the open
 * end after the last tile. Each run lies in DOM order outward, whichever way it goes.
 */
function layArm(direction: Direction, arm: InArm[], tip: HTMLElement[], run: number): HTMLElement[] {
  const parts: InArm[][] = [];
  for (let i = 0; i < arm.length; i += run) parts.push(arm.slice(i, i + run));
  if (parts.length === 0) parts.push([]);
  const lines = parts.map((part, r) => {
    const way = r % 2 ? BACK[direction] : direction;
    const upright = way === "up" || way === "down";
    const faces = part.map(({ tile, inner, outer }) => {
      const [first, second] = way === "left" || way === "up" ? [outer, inner] : [inner, outer];
      const double = tile.low === tile.high;
      const key = tileKey(tile);
      return tileFace(first, second, upright ? !double : double, { "data-tile": key, "data-piece": key, "data-place": "board" });
    });
    return h(`div.run.${way}`, faces, r === parts.length - 1 ? tip : null);
  });
  const [first, ...rest] = lines;
  return [h(`div.arm.${direction}`, first), h(`div.turns.${direction}`, rest)];
}

/** The number a tile must show to join `end`: the half its port exposes. */
function endValue(end: End): number {
  const tile = end.tile;
  if (!tile) return -1;
  return end.port === TilePort.HIGH ? Math.max(tile.low, tile.high) : Math.min(tile.low, tile.high);
}

/**
 * The board after `tile` joins at `end` (unset: it opens the round), placed as the rules
 * place it (rules §3: a double joins by a main arm, the first double is the spinner). For
 * a round's last play, which no view shows: the next view is the next round's.
 */
export function withPlay(board: BidBoard | undefined, tile: Tile, end: End | undefined): BidBoard {
  const placements = board?.placements ?? [];
  if (board && placements.some((p) => tileKey(p.tile) === tileKey(tile))) return board;
  const double = tile.low === tile.high;
  const via = !end ? TilePort.UNSPECIFIED : double ? TilePort.STRAIGHT_A : Math.min(tile.low, tile.high) === endValue(end) ? TilePort.LOW : TilePort.HIGH;
  return create(BidBoardSchema, {
    placements: [...placements, create(PlacementSchema, { tile, on: end, via })],
    spinner: board?.spinner ?? (double ? tile : undefined),
    branchesOpen: board?.branchesOpen ?? false,
  });
}

const SMALLEST_ZOOM = 0.5; // below this the pips are unreadable: the wrap scrolls instead
const RUNS = [Infinity, 8, 6, 5, 4, 3, 2]; // run lengths tried, longest first

/**
 * Fit the board in `wrap` to the wrap's width and, when it has one, its max-height, so the
 * whole line of play shows at once: lay it out again by `lay` with shorter runs (main arms
 * while it is too wide, branches while it is too tall) until it fits, then shrink the best
 * layout if it must, never below SMALLEST_ZOOM.
 */
export function fitBoard(wrap: HTMLElement, lay: (runs: Runs) => HTMLElement): void {
  if (!wrap.querySelector(".board-view")) return; // an empty board
  let runs = STRAIGHT;
  let shown = STRAIGHT;
  let best = { runs, scale: 0 };
  for (let step = 0; step < 2 * RUNS.length; step++) {
    if (runs !== shown) wrap.querySelector(".board-view")?.replaceWith(lay((shown = runs)));
    const { width, height } = fitScales(wrap);
    const scale = Math.min(1, width, height);
    if (scale > best.scale) best = { runs, scale };
    if (scale >= 1) break;
    const [first, second]: (keyof Runs)[] = width < height ? ["main", "branch"] : ["branch", "main"];
    const next = shorter(runs, first) ?? shorter(runs, second);
    if (!next) break;
    runs = next;
  }
  if (best.runs !== shown) wrap.querySelector(".board-view")?.replaceWith(lay(best.runs));
  if (best.scale >= 1) return;
  const board = wrap.querySelector<HTMLElement>(".domino-board")!;
  board.style.zoom = String(Math.max(SMALLEST_ZOOM, Math.floor(best.scale * 100) / 100));
  board.style.setProperty("--board-zoom", board.style.zoom); // a slot's touch area stays 44 px (style.css)
}

function shorter(runs: Runs, kind: keyof Runs): Runs | null {
  const next = RUNS[RUNS.indexOf(runs[kind]) + 1];
  return next === undefined ? null : { ...runs, [kind]: next };
}

/** How much the board in `wrap` must shrink to fit the wrap's width, and its height. */
function fitScales(wrap: HTMLElement): { width: number; height: number } {
  const board = wrap.querySelector<HTMLElement>(".domino-board");
  if (!board) return { width: 1, height: 1 };
  board.style.zoom = "";
  board.style.removeProperty("--board-zoom");
  const style = getComputedStyle(wrap);
  const width = wrap.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const maxHeight = parseFloat(style.maxHeight); // NaN for "none"
  const height = Number.isNaN(maxHeight) ? Infinity : maxHeight - (wrap.scrollHeight - board.offsetHeight);
  return { width: width / board.offsetWidth, height: height / board.offsetHeight };
}
