// The flights on the page (see motion.ts for which card flies where): the table is measured
// before a redraw and after it, and each card that moved is animated from its old box to its
// new one with the Web Animations API. A card that left the table flies as itself, from the
// tree the redraw took it out of, in a layer of its own above the page that takes no presses.

import { MOTION_MS, plan, type Box, type Flight, type Scene } from "./motion";

function boxOf(element: Element): Box {
  const r = element.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

const visible = (box: Box): boolean => box.width > 0 && box.height > 0;

/** Where everything lies on the table shown in ``root`` (null: no table shown). */
export function sceneOf(root: ParentNode): Scene<HTMLElement> | null {
  const table = root.querySelector<HTMLElement>(".table");
  if (!table) return null;
  const cards = Array.from(table.querySelectorAll<HTMLElement>(".card[data-place]:not(.spot)"), (element) => ({
    card: element.dataset["card"] ?? null, place: element.dataset["place"] ?? "", box: boxOf(element), element,
  })).filter((spot) => visible(spot.box));
  const deckElement = table.querySelector<HTMLElement>('.spot[data-place="deck"]');
  const deckBox = deckElement ? boxOf(deckElement) : null;
  const deck = deckElement && deckBox && visible(deckBox) ? { box: deckBox, count: Number(deckElement.dataset["count"] ?? 0) } : null;
  const seats = new Map<number, Box>();
  const movers: number[] = [];
  for (const seat of table.querySelectorAll<HTMLElement>(".seat[data-seat]")) {
    const n = Number(seat.dataset["seat"]);
    const box = boxOf(seat.querySelector(".badge") ?? seat);
    if (visible(box)) seats.set(n, box);
    if (seat.classList.contains("acting")) movers.push(n);
  }
  const mine = table.querySelector<HTMLElement>(".own-seat .seat[data-seat]");
  return {
    game: `${table.dataset["game"] ?? ""}:${table.dataset["gameId"] ?? ""}`,
    cards, deck, seats, movers, me: mine ? Number(mine.dataset["seat"]) : null,
  };
}

export function reducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

interface Going {
  animation: Animation;
  end(): void;
}

export class Flights {
  private going: Going[] = [];
  private before: Scene<HTMLElement> | null = null;
  private layer: HTMLElement | null = null;
  /** Every flight started, counted on the body's ``data-flights`` (for the browser tests). */
  flown = 0;

  constructor(private readonly reduced: () => boolean = reducedMotion) {}

  /** Before a redraw: the flights still going end (their cards where they land), and where
   * each card lies is noted. */
  measure(root: ParentNode): void {
    for (const going of this.going.splice(0)) {
      going.animation.cancel();
      going.end();
    }
    this.before = this.reduced() ? null : sceneOf(root);
  }

  /** After the redraw: each card that moved flies from where it was. */
  play(root: ParentNode): void {
    const before = this.before;
    this.before = null;
    if (before === null) return;
    const after = sceneOf(root);
    if (after === null) return;
    for (const flight of plan(before, after, this.reduced())) this.fly(flight);
  }

  private fly(flight: Flight<HTMLElement>): void {
    const element = flight.spot.element;
    if (!element || typeof element.animate !== "function") return;
    const { from, to } = flight;
    let going: Going;
    if (flight.gone) {
      if (element.isConnected) return; // still on the page (hidden here): not taken away
      const layer = this.ownLayer();
      element.classList.remove("arrive");
      element.classList.add("ghost");
      layer.append(element);
      const at = (box: Box, scale: number, opacity: number): Keyframe => ({
        transform: `translate(${box.left}px, ${box.top}px) scale(${scale})`,
        width: `${from.width}px`, height: `${from.height}px`, opacity,
      });
      const animation = element.animate([at(from, 1, 1), at(to, 0.6, 0.3)], { duration: MOTION_MS, easing: "ease-in", fill: "both", id: "flight" });
      going = { animation, end: () => element.remove() };
    } else {
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      const sx = to.width > 0 ? from.width / to.width : 1;
      const sy = to.height > 0 ? from.height / to.height : 1;
      element.classList.remove("arrive");
      element.classList.add("flying");
      const animation = element.animate([
        { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
        { transformOrigin: "0 0", transform: "none" },
      ], { duration: MOTION_MS, easing: "ease-out", id: "flight" });
      going = { animation, end: () => element.classList.remove("flying") };
    }
    this.going.push(going);
    const done = (): void => {
      going.end();
      this.going = this.going.filter((g) => g !== going);
    };
    going.animation.onfinish = done;
    going.animation.oncancel = done;
    this.flown++;
    document.body.dataset["flights"] = String(this.flown);
  }

  private ownLayer(): HTMLElement {
    if (this.layer?.isConnected) return this.layer;
    const layer = document.createElement("div");
    layer.className = "flights";
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
    this.layer = layer;
    return layer;
  }
}
