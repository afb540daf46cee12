// A tiny element builder: h("div.board#main", {onclick}, children). A Message child or
// attribute value is put in the page live: it follows the language (i18n/live.ts); so is a
// function child or attribute value (not an "on…" handler), a figure formatted in its locale.
import { setAttribute, wordsNode } from "./i18n/live";
import { Message } from "./i18n/messages";

type Child = Node | Message | (() => string) | string | number | null | undefined | false;
type Props = Record<string, unknown>;

export function h(tag: string, props: Props | Child | Child[] = {}, ...children: (Child | Child[])[]): HTMLElement {
  if (props === null || typeof props !== "object" || props instanceof Node || props instanceof Message || Array.isArray(props)) {
    children.unshift(props as Child | Child[]);
    props = {};
  }
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const element = document.createElement(name || "div");
  for (const part of rest) {
    if (part.startsWith(".")) element.classList.add(part.slice(1));
    else element.id = part.slice(1);
  }
  for (const [key, value] of Object.entries(props as Props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value as EventListener);
    } else if (key === "dataset") {
      Object.assign(element.dataset, value);
    } else if (value === true) {
      element.setAttribute(key, "");
    } else if (value instanceof Message || typeof value === "function") {
      setAttribute(element, key, value as Message | (() => string));
    } else {
      element.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : child instanceof Message || typeof child === "function" ? wordsNode(child) : String(child));
  }
  return element;
}

/**
 * Controls kept from one drawing of a board to the next: the same button each time (its
 * words are live, its handler is the board's own). A board is drawn anew on every update;
 * a press that began on one button and ended on its replacement would be no click at all,
 * and an update lands at any moment (the opponent's move, their page opening the match).
 */
export class KeptControls {
  private readonly controls = new Map<string, HTMLElement>();

  /** The control kept as `key`, made by `make` the first time. */
  get(key: string, make: () => HTMLElement): HTMLElement {
    let control = this.controls.get(key);
    if (!control) this.controls.set(key, (control = make()));
    return control;
  }
}
