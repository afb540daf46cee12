// Words on the page that follow the language: every message put in the page (as text, as an
// attribute, or as parts around nodes) is remembered with its node, and formatted again in
// place when the language changes, so a screen keeps its state (a match, a half-typed form).
import { Message, parts, textOf, type Words } from "./messages";

/** Words, or a figure formatted in the locale of the moment (a date, a time ago). */
export type Live = Words | (() => string);

const texts = new WeakMap<Text, Message | (() => string)>();
const holders = new WeakMap<Element, Message>(); // a rich message's element: its children are the parts
const attributes = new WeakMap<Element, Map<string, Message | (() => string)>>();
// Which language change each remembered node was last formatted after: a node made before a
// change but put in the page after it (a screen built around a fetch) is formatted again as
// it arrives.
let changes = 0;
const formattedAfter = new WeakMap<Node, number>();
let arrivals: MutationObserver | null = null;

function formatted(words: Live): string {
  return typeof words === "function" ? words() : textOf(words);
}

/** The words as a node: a text node, or for a message with node values a span of its parts. */
export function wordsNode(words: Live): Node {
  if (typeof words === "string") return document.createTextNode(words);
  if (typeof words === "function" || !words.rich) {
    const node = document.createTextNode(formatted(words));
    texts.set(node, words);
    formattedAfter.set(node, changes);
    return node;
  }
  const holder = document.createElement("span");
  holder.className = "msg"; // display: contents, so the parts lie as if the span were not there
  holder.append(...parts(words));
  holders.set(holder, words);
  formattedAfter.set(holder, changes);
  return holder;
}

/** A part of page content as a node (words live, as wordsNode makes them). */
export function toNode(part: Node | Live): Node {
  return part instanceof Node ? part : wordsNode(part);
}

/** Set an attribute to the words, kept in the current language. */
export function setAttribute(element: Element, name: string, words: Live): void {
  element.setAttribute(name, formatted(words));
  const kept = attributes.get(element) ?? new Map<string, Message | (() => string)>();
  if (typeof words !== "string") kept.set(name, words);
  else kept.delete(name);
  attributes.set(element, kept);
  formattedAfter.set(element, changes);
}

/** The element says `words` and nothing else. */
export function setText(element: Element, words: Live): void {
  element.replaceChildren(wordsNode(words));
}

/**
 * The language changed: format every remembered message in the page again, and from now on
 * each one that arrives in the page formatted in an older language.
 */
export function relabelPage(): void {
  changes += 1;
  relabel(document.documentElement, false);
  if (arrivals) return;
  arrivals = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) relabel(node, true);
  });
  arrivals.observe(document.documentElement, { childList: true, subtree: true });
}

/** Format the remembered messages under `root` again in the current language (`staleOnly`:
 * those formatted before the last change). */
function relabel(root: Node, staleOnly: boolean): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  const found: Node[] = [];
  for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
    const after = formattedAfter.get(node);
    if (after !== undefined && !(staleOnly && after === changes)) found.push(node);
  }
  for (const node of found) {
    formattedAfter.set(node, changes);
    if (node instanceof Text) {
      const message = texts.get(node);
      if (message) node.data = formatted(message);
      continue;
    }
    if (!(node instanceof Element)) continue;
    for (const [name, message] of attributes.get(node) ?? []) node.setAttribute(name, formatted(message));
    const message = holders.get(node);
    if (message) node.replaceChildren(...parts(message));
  }
}
