// The pictures' symbols (presentation/drawing/shapes.py) as SVG: each is drawn centred on
// (cx, cy) inside a square of half-side r, in one colour, with the same geometry as the PNGs.

export type SymbolName =
  | "heart" | "spade" | "club" | "diamond" | "circle" | "square" | "triangle"
  | "star" | "ring" | "bolt" | "bauble" | "present" | "warning";

type Draw = (cx: number, cy: number, r: number, fill: string) => string;

const n = (x: number): string => (Math.round(x * 100) / 100).toString();

function ellipse(x0: number, y0: number, x1: number, y1: number, fill: string): string {
  return `<ellipse cx="${n((x0 + x1) / 2)}" cy="${n((y0 + y1) / 2)}" rx="${n((x1 - x0) / 2)}" ry="${n((y1 - y0) / 2)}" fill="${fill}"/>`;
}

function polygon(points: [number, number][], fill: string): string {
  return `<polygon points="${points.map(([x, y]) => `${n(x)},${n(y)}`).join(" ")}" fill="${fill}"/>`;
}

function rect(x0: number, y0: number, x1: number, y1: number, fill: string): string {
  return `<rect x="${n(x0)}" y="${n(y0)}" width="${n(x1 - x0)}" height="${n(y1 - y0)}" fill="${fill}"/>`;
}

const stem: Draw = (cx, cy, r, fill) =>
  polygon([[cx, cy + r * 0.2], [cx - r * 0.35, cy + r], [cx + r * 0.35, cy + r]], fill);

const heart: Draw = (cx, cy, r, fill) => {
  const lobe = r * 0.52;
  const top = cy - r * 0.35;
  return (
    ellipse(cx - 2 * lobe, top - lobe, cx, top + lobe, fill) +
    ellipse(cx, top - lobe, cx + 2 * lobe, top + lobe, fill) +
    polygon(
      [[cx - 2 * lobe + r * 0.03, top + lobe * 0.35], [cx + 2 * lobe - r * 0.03, top + lobe * 0.35], [cx, cy + r]],
      fill,
    )
  );
};

const spade: Draw = (cx, cy, r, fill) => {
  const lobe = r * 0.48;
  const base = cy + r * 0.12;
  return (
    ellipse(cx - 2 * lobe, base - lobe, cx, base + lobe, fill) +
    ellipse(cx, base - lobe, cx + 2 * lobe, base + lobe, fill) +
    polygon(
      [[cx - 2 * lobe + r * 0.03, base - lobe * 0.3], [cx + 2 * lobe - r * 0.03, base - lobe * 0.3], [cx, cy - r]],
      fill,
    ) +
    stem(cx, cy, r, fill)
  );
};

const club: Draw = (cx, cy, r, fill) => {
  const lobe = r * 0.42;
  let out = "";
  for (const [dx, dy] of [[0, -0.5], [-0.5, 0.2], [0.5, 0.2]] as const) {
    const x = cx + dx * r;
    const y = cy + dy * r;
    out += ellipse(x - lobe, y - lobe, x + lobe, y + lobe, fill);
  }
  return out + rect(cx - r * 0.12, cy - r * 0.2, cx + r * 0.12, cy + r * 0.35, fill) + stem(cx, cy, r, fill);
};

const diamond: Draw = (cx, cy, r, fill) =>
  polygon([[cx, cy - r], [cx + r * 0.72, cy], [cx, cy + r], [cx - r * 0.72, cy]], fill);

const circle: Draw = (cx, cy, r, fill) => ellipse(cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85, fill);

const square: Draw = (cx, cy, r, fill) => {
  const side = r * 0.78;
  return rect(cx - side, cy - side, cx + side, cy + side, fill);
};

const triangle: Draw = (cx, cy, r, fill) =>
  polygon([[cx, cy - r], [cx + r * 0.95, cy + r * 0.75], [cx - r * 0.95, cy + r * 0.75]], fill);

const star: Draw = (cx, cy, r, fill) => {
  const points: [number, number][] = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.45;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push([cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]);
  }
  return polygon(points, fill);
};

const ring: Draw = (cx, cy, r, fill) => {
  const width = Math.max(2, r * 0.32);
  const bow = r * 0.32;
  const y = cy + r * 0.8;
  return (
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r * 0.85 - width / 2)}" fill="none" stroke="${fill}" stroke-width="${n(width)}"/>` +
    polygon([[cx, y], [cx - bow * 1.3, y - bow], [cx - bow * 1.3, y + bow]], fill) +
    polygon([[cx, y], [cx + bow * 1.3, y - bow], [cx + bow * 1.3, y + bow]], fill)
  );
};

const bolt: Draw = (cx, cy, r, fill) =>
  polygon(
    [
      [cx + r * 0.25, cy - r], [cx - r * 0.6, cy + r * 0.1], [cx - r * 0.02, cy + r * 0.1],
      [cx - r * 0.3, cy + r], [cx + r * 0.6, cy - r * 0.15], [cx + r * 0.05, cy - r * 0.15],
    ],
    fill,
  );

const bauble: Draw = (cx, cy, r, fill) => {
  const ball = r * 0.72;
  const y = cy + r * 0.22;
  const width = Math.max(1, r * 0.1);
  return (
    ellipse(cx - ball, y - ball, cx + ball, y + ball, fill) +
    rect(cx - r * 0.22, cy - r * 0.72, cx + r * 0.22, cy - r * 0.45, fill) +
    `<path d="M${n(cx - r * 0.2)},${n(cy - r * 0.8)} A${n(r * 0.2)},${n(r * 0.2)} 0 0 1 ${n(cx + r * 0.2)},${n(cy - r * 0.8)}" fill="none" stroke="${fill}" stroke-width="${n(width)}"/>`
  );
};

const present: Draw = (cx, cy, r, fill) => {
  const gap = Math.max(1, r * 0.14);
  const side = r * 0.8;
  const top = cy - r * 0.5;
  let out = "";
  for (const [x0, x1] of [[cx - side, cx - gap], [cx + gap, cx + side]] as const) {
    for (const [y0, y1] of [[top, cy - gap], [cy + gap, cy + r * 0.85]] as const) {
      out += rect(x0, y0, x1, y1, fill);
    }
  }
  const loop = r * 0.3;
  return (
    out +
    ellipse(cx - loop * 2, top - loop * 1.6, cx - gap * 0.3, top - gap, fill) +
    ellipse(cx + gap * 0.3, top - loop * 1.6, cx + loop * 2, top - gap, fill)
  );
};

const warning: Draw = (cx, cy, r, fill) =>
  triangle(cx, cy, r, fill) +
  rect(cx - r * 0.09, cy - r * 0.35, cx + r * 0.09, cy + r * 0.3, "#fff") +
  ellipse(cx - r * 0.1, cy + r * 0.42, cx + r * 0.1, cy + r * 0.62, "#fff");

const SYMBOLS: Record<SymbolName, Draw> = {
  heart, spade, club, diamond, circle, square, triangle, star, ring, bolt, bauble, present, warning,
};

export function isSymbol(name: string): name is SymbolName {
  return name in SYMBOLS;
}

/** The SVG markup of the symbol ``name`` (a key of the pictures' SYMBOLS). */
export function symbol(name: SymbolName, cx: number, cy: number, r: number, fill: string): string {
  return SYMBOLS[name](cx, cy, r, fill);
}
