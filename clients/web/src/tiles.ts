// A domino drawn with pips: two halves side by side (or stacked).
import { h } from "./dom";

const PIPS: number[][] = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

function half(value: number): HTMLElement {
  const spots = PIPS[value] ?? [];
  return h(
    "span.half",
    { "data-value": String(value) },
    Array.from({ length: 9 }, (_, i) => h(spots.includes(i) ? "i.pip" : "i.nopip")),
  );
}

/** A tile showing `first` then `second` (left→right, or top→bottom when `vertical`), a picture
 * named as players write it ("[3|5]"). */
export function tileFace(first: number, second: number, vertical: boolean, extra: Record<string, unknown> = {}): HTMLElement {
  return h(`div.tile${vertical ? ".v" : ".h"}`, { role: "img", "aria-label": `[${first}|${second}]`, ...extra }, half(first), half(second));
}
