// A few DOM helpers: elements built with their attributes and children, text always as text.

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | null | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

/** An element holding trusted SVG markup made by cards.ts (every text in it is escaped). */
export function svgBox(markup: string, className: string): HTMLElement {
  const box = document.createElement("span");
  box.className = className;
  box.innerHTML = markup;
  return box;
}
