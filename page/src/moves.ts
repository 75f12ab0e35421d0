// Which move a card, a pile or a cell stands for: the table's click targets, from the moves the
// backend offers (the same action texts as the DM buttons; see each engine's parse_action).

import type { Game, Move } from "./protocol";

export interface Bound {
  /** A click target's key ("hand:W3a", "pile:1", "deck", "discard:A", "cell:4") to its move. */
  targets: Map<string, Move>;
  /** Gnoming's opening: the two cells of each offered pick, "op.a.b". */
  pairs: Map<string, Move>;
  /** The moves no target stands for: shown as buttons. */
  rest: Move[];
}

const GNOME_TARGET = /^(pl|bo|fl)\.(\d+)$/;
const GNOME_PILE = /^(dr|x|nb|pi)\.(A|B)$/;

/** The click target of one move, or null for a button-only move. */
export function targetOf(game: Game, action: string): string | null {
  switch (game) {
    case "grinch":
      if (action.startsWith("d.")) return `hand:${action.slice(2)}`;
      if (action === "t.deck") return "deck";
      if (/^t\.p\d$/.test(action)) return `pile:${action.slice(3)}`;
      return null;
    case "hearts":
      return action.startsWith("p.") ? `hand:${action.slice(2)}` : null;
    case "gnome": {
      if (action === "dr.deck") return "deck";
      const cell = GNOME_TARGET.exec(action);
      if (cell) return `cell:${cell[2]}`;
      const pile = GNOME_PILE.exec(action);
      // Drawing from a pile and putting a card on it are never offered in the same step.
      if (pile) return `discard:${pile[2]}`;
      return null;
    }
    case "ten":
      if (action === "draw") return "deck";
      return null;
    default: // a game without a dedicated view: every move is a button
      return null;
  }
}

export function bindMoves(game: Game, moves: readonly Move[]): Bound {
  const bound: Bound = { targets: new Map(), pairs: new Map(), rest: [] };
  for (const move of moves) {
    if (game === "gnome" && /^op\.\d+\.\d+$/.test(move.action)) {
      const [, a, b] = move.action.split(".");
      bound.pairs.set(`${a}.${b}`, move);
      continue;
    }
    const target = targetOf(game, move.action);
    if (target !== null && !bound.targets.has(target)) bound.targets.set(target, move);
    else bound.rest.push(move);
  }
  return bound;
}

/** Gnoming's opening: the cells that can still complete a pick after ``first`` was chosen
 * (``first`` null: every cell that starts or ends some pick). */
export function openingCells(pairs: ReadonlyMap<string, Move>, first: number | null): Set<number> {
  const cells = new Set<number>();
  for (const key of pairs.keys()) {
    const [a, b] = key.split(".").map(Number) as [number, number];
    if (first === null) {
      cells.add(a);
      cells.add(b);
    } else if (a === first) cells.add(b);
    else if (b === first) cells.add(a);
  }
  return cells;
}

/** The offered pick of cells ``a`` and ``b``, in either order. */
export function openingMove(pairs: ReadonlyMap<string, Move>, a: number, b: number): Move | undefined {
  return pairs.get(`${a}.${b}`) ?? pairs.get(`${b}.${a}`);
}
