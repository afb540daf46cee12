// Motion that shows what changed: a card or tile that moved glides, for a moment, from where
// it was drawn before the redraw to where it lies now (first, last, invert, play). Pieces
// are marked with `data-piece` (what it is) and `data-place` (where it lies). Nothing moves
// for a reader who asked for reduced motion.
const GLIDE_MS = 200;
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

/** A piece as drawn: what it is, where it lies, its box on the screen. */
export interface Spot {
  piece: string;
  place: string;
  rect: DOMRect;
}

/** Where each marked piece under `root` is drawn now (none when it is not on the page). */
export function spotsOf(root: HTMLElement): Spot[] {
  if (!root.isConnected) return [];
  return [...root.querySelectorAll<HTMLElement>("[data-piece][data-place]")].map((element) => ({
    piece: element.dataset.piece ?? "",
    place: element.dataset.place ?? "",
    rect: element.getBoundingClientRect(),
  }));
}

/**
 * Glide each piece under `root` that is in a new place from the one place it left (a place
 * that no longer shows it); a piece that appeared from nowhere on the page glides from
 * `origin(piece)` when that names a spot, else it just appears.
 */
export function glide(before: Spot[], root: HTMLElement, origin: (element: HTMLElement) => DOMRect | undefined = () => undefined): void {
  if (reducedMotion.matches || document.hidden || !root.isConnected || before.length === 0) return;
  const now = [...root.querySelectorAll<HTMLElement>("[data-piece][data-place]")];
  const shown = new Set(now.map((element) => `${element.dataset.place}\n${element.dataset.piece}`));
  const was = new Set(before.map(({ place, piece }) => `${place}\n${piece}`));
  for (const element of now) {
    const { piece = "", place = "" } = element.dataset;
    if (was.has(`${place}\n${piece}`)) continue; // it was here already
    const left = before.filter((spot) => spot.piece === piece && !shown.has(`${spot.place}\n${piece}`));
    const from = left.length === 1 ? left[0].rect : left.length === 0 ? origin(element) : undefined;
    if (from) fly(element, from);
  }
}

/** A copy of `element` flies over the page from `from` to where `element` is; meanwhile the
 * element itself is hidden, so the piece is seen once. */
function fly(element: HTMLElement, from: DOMRect): void {
  const to = element.getBoundingClientRect();
  if (to.width === 0 || (Math.abs(from.left - to.left) < 2 && Math.abs(from.top - to.top) < 2)) return;
  const ghost = element.cloneNode(true) as HTMLElement;
  ghost.classList.add("glide-ghost");
  ghost.setAttribute("aria-hidden", "true");
  ghost.removeAttribute("data-place");
  document.body.append(ghost);
  const natural = ghost.getBoundingClientRect(); // its size outside any zoomed board
  const size = (rect: DOMRect) => Math.sqrt((rect.width * rect.height) / (natural.width * natural.height)) || 1;
  const at = (rect: DOMRect) => `translate(${rect.left}px, ${rect.top}px) scale(${size(rect)})`;
  element.style.visibility = "hidden";
  const flight = ghost.animate([{ transform: at(from) }, { transform: at(to) }], { duration: GLIDE_MS, easing: "ease-out" });
  const land = () => {
    ghost.remove();
    element.style.visibility = "";
  };
  flight.addEventListener("finish", land);
  flight.addEventListener("cancel", land);
}
