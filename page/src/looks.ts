// The pictures' colours and card looks, exported from presentation/ at build time.

import data from "./generated/looks.json";

export interface GrinchSuitLook {
  colour: string; tint: string; pattern_colour: string; ink: string; on: string;
  emblem: string; pattern: string;
}
export interface GnomeValueLook {
  value: number; colour: string; tint: string; band: string; outline: string; ink: string; pip: string;
}
export interface TenGroupLook {
  colour: string; tint: string; stripe: string; outline: string; on: string; shape: string | null;
}

export interface Looks {
  palette: Record<"table" | "table_light" | "slot" | "paper" | "ink" | "soft_ink" | "white" | "gold" | "highlight", string>;
  series: string[];
  games: {
    grinch: {
      suits: Record<string, GrinchSuitLook>;
      bonus: Record<string, { points: string; target: string }>;
      names: Record<string, string>;
      back: string;
    };
    gnome: {
      values: Record<string, GnomeValueLook>;
      hazard: string; mulligan: string; star: string; mulligan_ring: string; vermilion: string; back: string;
    };
    hearts: {
      suits: Record<string, { colour: string; shape: string }>;
      points: Record<string, number>;
      queen: string;
      back: string;
    };
    ten: { groups: Record<string, TenGroupLook>; coin_tint: string; back: string };
  };
}

export const LOOKS: Looks = data as Looks;
