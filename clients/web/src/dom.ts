// A tiny element builder: h("div.board#main", {onclick}, children).
type Child = Node | string | number | null | undefined | false;
type Props = Record<string, unknown>;

export function h(tag: string, props: Props | Child | Child[] = {}, ...children: (Child | Child[])[]): HTMLElement {
  if (props === null || typeof props !== "object" || props instanceof Node || Array.isArray(props)) {
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
    } else {
      element.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}
