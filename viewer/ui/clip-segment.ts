/** A rectangle in layout coordinates: the part of the graph on screen. */
export interface Viewport {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The part of the segment (x1,y1)-(x2,y2) inside `view` (Liang-Barsky), or null. Its start is moved
 * back to a whole number of dash periods from the segment's own start, so a dashed line keeps its
 * dashes in place while the view pans: Chromium dashes a path over its whole length, visible or not,
 * so a zoomed-in view crossed by a few long dashed edges took a quarter of a second to draw.
 */
export function visibleSegment(x1: number, y1: number, x2: number, y2: number, view: Viewport, period: number): [number, number, number, number] | null {
  const [dx, dy] = [x2 - x1, y2 - y1];
  let [t0, t1] = [0, 1];
  for (const [p, q] of [[-dx, x1 - view.x0], [dx, view.x1 - x1], [-dy, y1 - view.y0], [dy, view.y1 - y1]] as const) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return null;
  }
  const length = Math.hypot(dx, dy);
  if (length > 0 && period > 0) t0 = (Math.floor((t0 * length) / period) * period) / length;
  return [x1 + dx * t0, y1 + dy * t0, x1 + dx * t1, y1 + dy * t1];
}
