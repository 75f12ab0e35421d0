// The keyed redraw: each frame's table is drawn anew, then the page's tree is patched to it
// element by element. An element still there (the same card in the same place, the same move,
// cell, lobby button or seat) stays the same node: it keeps its focus, the press a finger or a
// mouse button holds on it, and the card's place on the screen the motion starts from. Only
// what changed is touched: a text, an attribute, an element come or gone.

/** The attributes that name an element for the redraw, the first one present wins. */
const KEYS = ["data-key", "data-action", "data-cell", "data-lobby", "data-seat", "data-place", "id"] as const;

/** What the user changes on an element and a new drawing does not know: kept unless redrawn. */
const KEPT = new Set(["open"]);

/** An element's key among its siblings: its tag, what it stands for and, for a card, its face. */
export function keyOf(node: Node): string | null {
  if (!(node instanceof Element)) return null;
  for (const name of KEYS) {
    const value = node.getAttribute(name);
    if (value === null) continue;
    const card = node.getAttribute("data-card");
    return `${node.tagName}|${name}=${value}${card === null ? "" : `|${card}`}`;
  }
  return null;
}

function sameKind(a: Node, b: Node): boolean {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

function patchAttributes(old: Element, next: Element): void {
  for (const attr of Array.from(old.attributes)) {
    if (!next.hasAttribute(attr.name) && !KEPT.has(attr.name)) old.removeAttribute(attr.name);
  }
  for (const attr of Array.from(next.attributes)) {
    if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
  }
}

/** Makes ``old`` look and act as ``next`` (the same kind of node), keeping ``old``. */
function patchNode(old: Node, next: Node): void {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return;
  }
  const element = old as HTMLElement;
  const fresh = next as HTMLElement;
  patchAttributes(element, fresh);
  // A press's handler is the new drawing's: it knows the table as it is now.
  if ("onclick" in element && element.onclick !== fresh.onclick) element.onclick = fresh.onclick;
  patchChildren(element, Array.from(next.childNodes));
}

/** Patches ``parent``'s children to ``next`` (nodes of a new drawing, taken from it as they
 * are used). Keyed children are matched by key, the others in order by kind; matched nodes
 * keep their order whenever they can, so a focused element is not moved (moving blurs). */
export function patchChildren(parent: Node, next: readonly Node[]): void {
  const old = Array.from(parent.childNodes);
  const used = new Set<Node>();
  const byKey = new Map<string, Node[]>();
  for (const node of old) {
    const key = keyOf(node);
    if (key === null) continue;
    const list = byKey.get(key);
    if (list) list.push(node);
    else byKey.set(key, [node]);
  }
  let cursor = 0; // the next unkeyed old node to try
  const matches: (Node | null)[] = next.map((node) => {
    const key = keyOf(node);
    if (key !== null) {
      const found = byKey.get(key)?.find((candidate) => !used.has(candidate) && sameKind(candidate, node)) ?? null;
      if (found) used.add(found);
      return found;
    }
    for (let i = cursor; i < old.length; i++) {
      const candidate = old[i] as Node;
      if (used.has(candidate) || keyOf(candidate) !== null) continue;
      if (sameKind(candidate, node)) {
        used.add(candidate);
        cursor = i + 1;
        return candidate;
      }
      break; // an unkeyed node of another kind: replaced, not searched past
    }
    return null;
  });
  for (const node of old) if (!used.has(node)) parent.removeChild(node);
  next.forEach((node, i) => {
    const match = matches[i] ?? null;
    const at = parent.childNodes[i] ?? null;
    if (match === null) {
      parent.insertBefore(node, at);
      return;
    }
    if (match !== at) parent.insertBefore(match, at);
    patchNode(match, node);
  });
}
