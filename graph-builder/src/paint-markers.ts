import type { BuildContext } from "./context.js";
import { urlTail } from "./context.js";
import type { GraphNode, LcpElement } from "./graph.js";

/** Paint marks are presentation times; what ended this close before still came before. */
const EPS = 1e-3;

/** Why an older recording's LCP is null: it does not say. */
const LCP_UNSAID = "the recording does not say (made before pagepath recorded why)";

/**
 * First and largest contentful paint markers of the main frame, zero-duration nodes at the
 * recorded paint times, with edges from what each paint waited for:
 *
 * - FCP (`paint-fcp`): the last parse chunk that ended before it (the parser had produced the
 *   first content by then; what blocked the parser before comes through that chunk's parents),
 *   the style sheets that block rendering (every sheet of the main frame not inserted by a script)
 *   and the parser-blocking scripts (sync and inline) that ended before it: Chromium does not paint
 *   until those are done, and the paint follows them on the main thread.
 * - LCP (`paint-lcp`): FCP, the last parse chunk that ended before it, and the element's content:
 *   an image's resource (the `<img>` or CSS background the trace names), or for text the web fonts
 *   loaded before it (text waits for its font during the font's block period).
 *
 * Placed after normalisation, from emulated nodes only, so a paint after the load event (common on
 * small pages) is emulated rather than left out as after-load.
 */
export function buildPaintMarkers(ctx: BuildContext): void {
  const life = ctx.manifest.lifecycle;
  const main = ctx.frames.get(ctx.mainFrameId)!;
  const emulated = ctx.draft.nodes.filter((n) => n.excluded === null && n.frameId === main.id);
  const before = (t: number) => emulated.filter((n) => n.end <= t + EPS);
  const lastParse = (t: number) =>
    before(t).filter((n) => n.kind === "parse").reduce<GraphNode | undefined>((a, n) => (a && a.end >= n.end ? a : n), undefined) ?? main.docs[0]?.chunks[0];

  let fcp: GraphNode | undefined;
  if (life.firstContentfulPaint !== null) {
    const at = life.firstContentfulPaint;
    fcp = ctx.draft.add({ kind: "fcp", frameId: main.id, label: "first contentful paint", start: at, end: at, duration: 0 });
    ctx.draft.edge(lastParse(at), fcp, "paint-fcp", "inferred");
    for (const n of before(at)) if (blocksRendering(ctx, n)) ctx.draft.edge(n, fcp, "paint-fcp", "inferred");
  }
  if (life.largestContentfulPaint !== null) {
    const at = life.largestContentfulPaint;
    const element = life.largestContentfulPaintElement ?? null;
    const lcp = ctx.draft.add({ kind: "lcp", frameId: main.id, label: `largest contentful paint (${describe(element)})`, start: at, end: at, duration: 0, lcp: element });
    ctx.draft.edge(fcp, lcp, "paint-lcp", "inferred");
    ctx.draft.edge(lastParse(at), lcp, "paint-lcp", "inferred");
    for (const n of contentOf(ctx, element, before(at))) ctx.draft.edge(n, lcp, "paint-lcp", "observed");
  }
}

/** The graph's `recorded` paint fields. */
export function recordedPaints(ctx: BuildContext): { firstContentfulPaint: number | null; largestContentfulPaint: number | null; largestContentfulPaintMissing: string | null } {
  const life = ctx.manifest.lifecycle;
  return {
    firstContentfulPaint: life.firstContentfulPaint,
    largestContentfulPaint: life.largestContentfulPaint,
    largestContentfulPaintMissing: life.largestContentfulPaint !== null ? null : life.largestContentfulPaintMissing ?? LCP_UNSAID,
  };
}

/** A render-blocking style sheet, or a script the parser waited for. */
function blocksRendering(ctx: BuildContext, n: GraphNode): boolean {
  if (n.kind === "script") return n.script!.type === "sync" || n.script!.type === "inline";
  if (n.kind !== "css") return false;
  const sheet = ctx.draft.edges.find((e) => e.to === n.id && e.rule === "R18");
  return ctx.draft.byId.get(sheet?.from ?? "")?.resource?.initiatorType !== "script";
}

/** The resources the largest element's paint waited for (image, or web fonts for text). */
function contentOf(ctx: BuildContext, element: LcpElement | null, done: GraphNode[]): GraphNode[] {
  if (!element) return [];
  const fetched = done.filter((n) => n.kind === "resource");
  if (element.type === "text") return fetched.filter((n) => n.resource!.resourceType === "Font");
  if (!element.url) return [];
  const image = fetched.filter((n) => n.resource!.url === element.url || n.resource!.redirects.includes(element.url!)).at(-1);
  if (!image) ctx.draft.warnings.push(`the largest contentful paint's image ${element.url} has no emulated resource that finished before it: its marker waits only for the first paint and the parser`);
  return image ? [image] : [];
}

function describe(e: LcpElement | null): string {
  if (!e) return "element unknown";
  return e.type === "image" && e.url ? `image ${urlTail(e.url)}` : `${e.type} ${e.nodeName}`;
}
