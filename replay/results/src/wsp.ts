/**
 * The WSP space-filling design (Santiago, Claeys-Bruno and Sergent 2012), as seed 003 used it to
 * sample network parameters: from a large random candidate set, keep points no closer than dmin to
 * each other, walking from the centre to each next-nearest survivor; dmin is tuned until the design
 * has the requested number of points. Pure and seeded: the same arguments give the same points.
 */
import { mulberry32 } from "./seeded-random.js";

/** `points` points in the unit cube of `dims` dimensions, spread as evenly as WSP manages. */
export function wspUnitDesign(points: number, dims: number, seed: number): number[][] {
  if (dims === 0) return [[]];
  const random = mulberry32(seed);
  const candidates = Array.from({ length: Math.max(2000, 10 * points) }, () => Array.from({ length: dims }, random));
  if (points >= candidates.length) return candidates;
  // The number kept falls as dmin grows: bisect for the largest dmin that keeps enough.
  let low = 0;
  let high = Math.sqrt(dims);
  let best = candidates.slice(0, points);
  for (let i = 0; i < 30; i++) {
    const dmin = (low + high) / 2;
    const kept = select(candidates, dmin);
    if (kept.length >= points) {
      best = kept.slice(0, points);
      low = dmin;
    } else high = dmin;
  }
  return best;
}

function select(candidates: number[][], dmin: number): number[][] {
  const dims = candidates[0]!.length;
  const centre = new Array<number>(dims).fill(0.5);
  let alive = candidates.slice();
  let current = nearest(alive, centre);
  const kept: number[][] = [];
  while (current) {
    kept.push(current);
    const from = current;
    alive = alive.filter((p) => p !== from && distance(p, from) >= dmin);
    current = nearest(alive, from);
  }
  return kept;
}

function nearest(points: number[][], to: number[]): number[] | undefined {
  let best: number[] | undefined;
  let bestDistance = Infinity;
  for (const p of points) {
    const d = distance(p, to);
    if (d < bestDistance) [best, bestDistance] = [p, d];
  }
  return best;
}

function distance(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}

