import type { BuildContext } from "./context.js";
import type { GraphNode } from "./graph.js";

/** A request this close after a sheet was parsed still came after it. */
const EPS = 1e-3;

/**
 * Edges from every render-blocking style sheet to each resource CSS references (web fonts,
 * background images): Chromium finds those only when it resolves styles and lays the page out, and
 * it does neither for a frame until every render-blocking sheet is in. The recorded request's
 * initiator names one sheet (R2); on a loopback recording the others were in by then anyway, but
 * over a slow link the emulated browser would otherwise ask for a font while a large sheet is
 * still arriving. On real-admin-lte at 100 Mbit/s 80 ms, Chromium asked for Font Awesome's fonts
 * 1,400 ms after navigation, after the 1.4 MB adminlte.min.css; the emulated browser asked 900 ms
 * early, as soon as all.min.css was in.
 *
 * A sheet counts when it blocks rendering (renderBlockingSheets) and was parsed before the request
 * was made.
 */
export function linkStyleRecalc(ctx: BuildContext): void {
  const d = ctx.draft;
  const fromSheet = new Set(d.edges.filter((e) => e.rule === "R2" && d.byId.get(e.from)?.kind === "css").map((e) => e.to));
  const blocks = renderBlockingSheets(ctx);
  const blocking = ctx.computations.filter((c) => c.kind === "css" && blocks(c));
  for (const node of d.nodes) {
    if (node.kind !== "resource" || !fromSheet.has(node.id)) continue;
    for (const sheet of blocking) {
      if (sheet.frameId === node.frameId && sheet.end <= node.start + EPS) d.edge(sheet, node, "style-recalc", "inferred");
    }
  }
}

/**
 * Whether a style sheet's evaluation (a `css` node) blocks rendering: every sheet but those a
 * script inserted, which Chromium does not wait for (inline `<style>` counts; it has no file).
 * The sheets' files are looked up once, so the test is cheap inside loops over sheets and scripts.
 */
export function renderBlockingSheets(ctx: BuildContext): (css: GraphNode) => boolean {
  const scriptInserted = new Set<string>();
  for (const e of ctx.draft.edges) {
    if (e.rule === "R18" && ctx.draft.byId.get(e.from)?.resource?.initiatorType === "script") scriptInserted.add(e.to);
  }
  return (css) => !scriptInserted.has(css.id);
}
