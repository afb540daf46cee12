// The line of play laid out around its centre: the spinner (or the opening tile) in the
// middle, the main arms left and right, the spinner's branches up and down. Each arm is a
// chain; its tip carries the open point, if any, as a slot a tile can be played on.
import { h } from "./dom";
import { TilePort, type BidBoard, type OpenPoint, type Tile } from "./gen/photofinish/game/v1/bid_pb";
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

export function layBoard(board: BidBoard | undefined, openPoints: OpenPoint[], slots: BoardSlots): HTMLElement {
  const placements = board?.placements ?? [];
  if (placements.length === 0) return h("div.domino-board.empty", h("p.board-hint", "The board is empty: the round opens here."));
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
  const centreFace = centreTile
    ? centreTile.low === centreTile.high
      ? tileFace(centreTile.low, centreTile.high, true, { class: `tile v${isSpinner ? " spinner" : ""}` })
      : tileFace(centreTile.low, centreTile.high, false)
    : h("span");
  const slot = (point: OpenPoint) => {
    const id = point.end?.text ?? "";
    const legal = slots.legalEnds.has(id);
    return h(
      `button.end-slot${legal ? ".legal" : ""}`,
      {
        type: "button",
        "data-end": id,
        "aria-label": `open end ${id} needs ${point.value}`,
        disabled: !legal,
        onclick: () => slots.onEnd(id),
      },
      h("span.end-value", String(point.value)),
      slots.labels.has(id) ? h("kbd", slots.labels.get(id) ?? "") : null,
    );
  };
  const armFaces = (direction: Direction) =>
    arms[direction].map(({ tile, inner, outer }) => {
      const double = tile.low === tile.high;
      const vertical = direction === "up" || direction === "down" ? !double : double;
      const [first, second] = direction === "left" || direction === "up" ? [outer, inner] : [inner, outer];
      return tileFace(first, second, vertical, { "data-tile": tileKey(tile) });
    });
  return h(
    "div.domino-board",
    h("div.arm.up", tips.up.map(slot), armFaces("up").reverse()),
    h("div.arm.left", tips.left.map(slot), armFaces("left").reverse()),
    h("div.centre-tile", { "data-tile": centre }, centreFace),
    h("div.arm.right", armFaces("right"), tips.right.map(slot)),
    h("div.arm.down", armFaces("down"), tips.down.map(slot)),
    isSpinner ? h("p.spinner-note", board?.branchesOpen ? "Spinner: branches open" : "Spinner: branches open once both main arms are filled") : null,
  );
}
