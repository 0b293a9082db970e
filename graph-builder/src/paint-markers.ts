import type { AnimationFrame } from "./animation-frames.js";
import type { BuildContext } from "./context.js";
import { urlTail } from "./context.js";
import { chunkHolding, firstContentChunk, showsOnlyImages } from "./first-content.js";
import { blocksText, matchFaces, scanFontFaces, type FontFaceRule } from "./font-faces.js";
import type { GraphNode, LcpElement } from "./graph.js";
import { renderBlockingSheets } from "./style-recalc.js";
import { fetchedFor, urlKey } from "./url-key.js";

/** Paint marks are presentation times; what ended this close before still came before. */
const EPS = 1e-3;

/**
 * Paint events this close together belong to one frame (one per paint layer); frames are at
 * least a vsync (16.7 ms at 60 Hz) apart.
 */
const SAME_FRAME_MS = 4;

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
 *   until those are done, and the paint follows them on the main thread. Where the document's
 *   first content is images only (`showsOnlyImages`), the marker is the first paint and names the
 *   images asked for by then (`fcp.firstImages`): the first contentful paint is the first frame
 *   after one of them has arrived.
 * - Both: the computations of the main frame that ended between the frame painted before and the
 *   frame that showed the content (the trace's animation frames and `Paint` events): one of them
 *   made the content (a script inserting or revealing it, a timer, a handler), since the frame
 *   before did not show it;
 *   for FCP, not the parser's going on after the parsed content (later chunks, the script files it
 *   waited for), which blocks the parser and not the paint; for LCP,
 *   unless the element's content (its image, or the fonts its text waited for) arrived in that
 *   time, which is then why the frame before lacked it.
 * - LCP (`paint-lcp`): FCP, the last parse chunk that ended before it, and the element's content:
 *   an image's resource (the `<img>` or CSS background the trace names), or for text the web fonts
 *   it waited for (font-faces.ts: the faces its computed font matches, if their `font-display`
 *   keeps text invisible until they arrive; in recordings without the element's font, every font
 *   loaded before it except those whose faces all paint a fallback first), through
 *   `font-display-block` or `font-display-auto`: the text waits only until its block period ends.
 *
 * Each marker lasts its frame's rendering (timeRendering).
 *
 * Placed after normalisation, from emulated nodes only, so a paint after the load event (common on
 * small pages) is emulated rather than left out as after-load. The computations a paint's frame
 * showed, and everything they wait for, are emulated even when they ran after load: the paint is
 * part of the page the replay reports.
 */
export function buildPaintMarkers(ctx: BuildContext, body: (sha256: string) => Buffer | null): void {
  const life = ctx.manifest.lifecycle;
  const main = ctx.frames.get(ctx.mainFrameId)!;
  const inMain = ctx.draft.nodes.filter((n) => n.frameId === main.id);
  // The document's first content, parsed from its source once: which frame a paint showed turns on it.
  const firstContent = firstContentChunk(main.docs[0]!);
  const made = new Map<number, GraphNode[]>();
  for (const at of [life.firstContentfulPaint, life.largestContentfulPaint]) {
    if (at !== null && !made.has(at)) made.set(at, madeSincePreviousFrame(ctx, firstContent, inMain, at));
  }
  emulateWithAncestors(ctx, [...made.values()].flat());
  const emulated = inMain.filter((n) => n.excluded === null);
  const before = (t: number) => emulated.filter((n) => n.end <= t + EPS);
  const lastParse = (t: number) =>
    before(t).filter((n) => n.kind === "parse").reduce<GraphNode | undefined>((a, n) => (a && a.end >= n.end ? a : n), undefined) ?? main.docs[0]?.chunks[0];

  let fcp: GraphNode | undefined;
  if (life.firstContentfulPaint !== null) {
    const at = life.firstContentfulPaint;
    fcp = ctx.draft.add({ kind: "fcp", frameId: main.id, label: "first contentful paint", start: at, end: at, duration: 0 });
    const painted = paintedAt(ctx, firstContent, at);
    const parsed = firstContent !== undefined && firstContent.excluded === null && firstContent.end <= painted + EPS;
    const chunk = parsed ? firstContent : lastParse(painted);
    ctx.draft.edge(chunk, fcp, "paint-fcp", "inferred");
    // Images alone are contentful once one of them is painted: the first to arrive of those asked
    // for by then. Not a dependency of the marker, whose frame is the first paint, which the LCP
    // candidates start from (gen-pagepath-29's LCP is the white space between its images, painted
    // at 305 ms, its FCP the first image, at 432 ms).
    if (parsed && showsOnlyImages(main.docs[0]!, firstContent)) {
      const asked = emulated.filter((n) => n.kind === "resource" && n.resource!.resourceType === "Image" && n.start <= painted + EPS);
      if (asked.length > 0) fcp.fcp = { firstImages: asked.map((n) => n.id) };
    }
    // Sheets block every paint; scripts only those before the content: a script after it blocks the parser, not the paint.
    const sheetBlocks = renderBlockingSheets(ctx);
    const blocking = before(painted).filter((n) => blocksRendering(sheetBlocks, n) && (n.kind === "css" || n.end <= (chunk?.start ?? Infinity) + EPS));
    for (const n of blocking) ctx.draft.edge(n, fcp, "paint-fcp", "inferred");
    // What ran since the frame before may have made the content (real-jquery-ui shows its demos
    // from a timer), but not the parser's going on after the content (later chunks, script files
    // it waited for), which blocks the parser and not the paint: on gen-pagepath-6 such a script
    // (81 KB) ran just before the first paint on loopback, and over 100 Mbit/s 80 ms Chromium
    // painted 300 ms before it had arrived.
    const parserAfter = (n: GraphNode) =>
      parsed && n.start >= firstContent!.end - EPS && (n.kind === "parse" || (n.kind === "script" && n.script!.type === "sync"));
    // Content the parser produced after the frame before was painted is why that frame lacked it,
    // as for LCP below: what else ran meanwhile did not make it (gen-pagepath-20: an async script
    // that ran between the two frames on loopback held the model's first paint at 25 Mbit/s 20 ms
    // until it arrived, 150 ms after Chromium had painted the parsed text).
    // With animation frames `made` holds only the frame's own work, which ran after the content was parsed.
    const previous = previousFrame(ctx, painted);
    const parsedSince = !shownFrame(ctx, firstContent, at) && parsed && previous !== undefined && firstContent!.end > previous + EPS;
    if (!parsedSince) for (const n of made.get(at)!) if (!parserAfter(n)) ctx.draft.edge(n, fcp, "paint-fcp", "inferred");
    timeRendering(ctx, fcp, painted);
  }
  if (life.largestContentfulPaint !== null) {
    const at = life.largestContentfulPaint;
    const element = life.largestContentfulPaintElement ?? null;
    const lcp = ctx.draft.add({ kind: "lcp", frameId: main.id, label: `largest contentful paint (${describe(element)})`, start: at, end: at, duration: 0, lcp: element });
    ctx.draft.edge(fcp, lcp, "paint-lcp", "inferred");
    // The element's own chunk where the source tells it; else whatever was parsed by its frame.
    const painted = paintedAt(ctx, firstContent, at);
    const own = element ? chunkHolding(main.docs[0]!, element.nodeName) : undefined;
    const sameFrame = life.firstContentfulPaint !== null && paintedAt(ctx, firstContent, life.firstContentfulPaint) === painted;
    const chunk = own && own.excluded === null && own.end <= painted + EPS ? own : sameFrame ? undefined : lastParse(painted);
    ctx.draft.edge(chunk, lcp, "paint-lcp", "inferred");
    const content = contentOf(ctx, element, before(at), emulated.filter((n) => n.start <= at + EPS), body);
    // Content that arrived after the frame before was painted is why that frame lacked it: the
    // computations that merely ran meanwhile did not make it (gen-pagepath-17: a text paint held
    // for its block-display font, beside an async script that ran as the font came).
    const previous = previousFrame(ctx, painted);
    const arrived = previous !== undefined && content.some((c) => c.node.end > previous);
    if (!arrived) for (const n of made.get(at)!) if (!made.get(life.firstContentfulPaint ?? NaN)?.includes(n)) ctx.draft.edge(n, lcp, "paint-lcp", "inferred");
    for (const c of content) ctx.draft.edge(c.node, lcp, c.rule, "observed");
    timeRendering(ctx, lcp, painted);
  }
}

/**
 * A marker's duration is its frame's rendering: from when the main thread's task that painted the
 * frame began (style, layout, paint; BeginMainFrame), or its last parent ended if that was later,
 * to the recorded presentation time (raster and compositing come after the paint, on other
 * threads). The emulated browser presents the paint that long after its parents are done.
 */
function timeRendering(ctx: BuildContext, marker: GraphNode, painted: number): void {
  const task = ctx.tasks.filter((t) => t.start <= painted + EPS && painted <= t.end + EPS).at(-1);
  // A font still loading at the paint (its block period was over) is no part of the frame.
  const ends = ctx.draft.edges.filter((e) => e.to === marker.id).map((e) => ctx.draft.byId.get(e.from)!.end);
  const parentsEnd = Math.max(-Infinity, ...ends.filter((end) => end <= marker.end + EPS));
  marker.start = Math.min(marker.end, Math.max(task?.start ?? marker.end, parentsEnd));
  marker.duration = marker.end - marker.start;
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

/** A presentation this close to a paint mark is the one it reports (both are the compositor's time). */
const PRESENTED_EPS = 0.05;

/**
 * When the main frame's content presented at `at` was painted: the first main-frame `Paint` of the
 * animation frame the compositor presented then (shownFrame). Chromium can present a frame long after painting it:
 * on real-jquery-mobile the frame that ran the DOMContentLoaded handler revealing the page painted
 * at 415 ms and was presented at 458 ms, after the load event (441 ms) and two later repaints, so
 * the last `Paint` before the presentation is the wrong frame. Without animation frames in the
 * trace, that last `Paint`; without paint events, `at`.
 */
function paintedAt(ctx: BuildContext, content: GraphNode | undefined, at: number): number {
  const shown = shownFrame(ctx, content, at);
  return (shown && framePaint(ctx, shown, at)) ?? ctx.mainPaints.filter((p) => p <= at + EPS).at(-1) ?? at;
}

/** The frame's own `Paint` of the main frame: the first from its rendering to `at`. */
function framePaint(ctx: BuildContext, frame: AnimationFrame, at: number): number | undefined {
  const from = frame.render ?? frame.start;
  return ctx.mainPaints.find((p) => p >= from - EPS && p <= at + EPS);
}

/**
 * The animation frame presented at `at`: of several presented together, the earliest to begin
 * whose paint came after the document's first content (`content`) was parsed (the later ones only
 * repainted). No paint before that shows content: on a busy machine a frame painted blank before
 * the rule fixture thesis-example's text was parsed, and the next, painted with it, were
 * presented at once.
 */
function shownFrame(ctx: BuildContext, content: GraphNode | undefined, at: number): AnimationFrame | undefined {
  const together = ctx.animationFrames.filter((f) => f.presented !== null && Math.abs(f.presented - at) <= PRESENTED_EPS);
  const parsedBy = content !== undefined && content.excluded === null ? content.end : -Infinity;
  return together.find((f) => (framePaint(ctx, f, at) ?? Infinity) >= parsedBy - EPS) ?? together.at(-1);
}

/**
 * The computations that may have made what the frame presented at `at` showed: those that ended
 * after the frame painted before it and no later than its paint, and may have changed the main
 * frame's style or layout: scheduled or forced that work, or ran while some was pending, which
 * Chromium does not trace twice (a script that only inserts a script or sends an XHR, with nothing
 * pending, changed nothing a paint shows); with animation frames in the trace, only those that ran
 * in the frame presented (from its first task to its rendering). The main thread rendered nothing in between,
 * so one of them may have made the content (real-jquery-mobile reveals its page from a
 * DOMContentLoaded handler), while the work of earlier frames that painted nothing new did not
 * (on gen-pagepath-20 an async script ran a frame before the text was parsed). None when no
 * earlier frame was painted: the first frame waits for the parser and what blocks rendering,
 * which the other edges give.
 */
function madeSincePreviousFrame(ctx: BuildContext, content: GraphNode | undefined, nodes: GraphNode[], at: number): GraphNode[] {
  const frame = paintedAt(ctx, content, at);
  const previous = previousFrame(ctx, frame);
  if (previous === undefined) return [];
  const since = shownFrame(ctx, content, at)?.start ?? -Infinity;
  const computation = (n: GraphNode) => n.kind === "script" || n.kind === "timer" || n.kind === "event" || n.kind === "css" || n.kind === "parse";
  const restyled = (n: GraphNode) =>
    ctx.mainRestyles.some((r) => r.at >= n.start - EPS && r.at <= n.end + EPS) || ctx.mainRestyles.filter((r) => r.at < n.start - EPS).at(-1)?.scheduled === true;
  return nodes.filter((n) => computation(n) && n.end > previous && n.start >= since - EPS && n.end <= frame + EPS && restyled(n));
}

/** When the main frame painted the frame before the one painted at `painted`; undefined if none did. */
function previousFrame(ctx: BuildContext, painted: number): number | undefined {
  return ctx.mainPaints.filter((p) => p < painted - SAME_FRAME_MS).at(-1);
}

/** Takes `nodes` and all they depend on into the emulated graph, whatever normalisation left out. */
function emulateWithAncestors(ctx: BuildContext, nodes: GraphNode[]): void {
  const parents = new Map<string, string[]>();
  for (const e of ctx.draft.edges) parents.set(e.to, [...(parents.get(e.to) ?? []), e.from]);
  const stack = nodes.filter((n) => n.excluded !== null);
  while (stack.length) {
    const n = stack.pop()!;
    if (n.excluded === null) continue;
    n.excluded = null;
    for (const p of parents.get(n.id) ?? []) stack.push(ctx.draft.byId.get(p)!);
  }
}

/** A render-blocking style sheet, or a script the parser waited for. */
function blocksRendering(sheetBlocks: (css: GraphNode) => boolean, n: GraphNode): boolean {
  if (n.kind === "script") return n.script!.type === "sync" || n.script!.type === "inline";
  return n.kind === "css" && sheetBlocks(n);
}

/** What the largest element's paint waited for, and the rule that says how long it waits. */
interface Content {
  node: GraphNode;
  rule: "paint-lcp" | "font-display-block" | "font-display-auto";
}

/** The resources the largest element's paint waited for (image, or web fonts for text). */
function contentOf(ctx: BuildContext, element: LcpElement | null, done: GraphNode[], started: GraphNode[], body: (sha256: string) => Buffer | null): Content[] {
  if (!element) return [];
  const fetched = done.filter((n) => n.kind === "resource");
  const font = (n: GraphNode) => n.kind === "resource" && n.resource!.resourceType === "Font";
  if (element.type === "text") return textFonts(element, fetched.filter(font), started.filter(font), mainFrameFaces(ctx, body));
  if (!element.url) return [];
  const image = fetched.filter((n) => fetchedFor(n.resource!, element.url!)).at(-1);
  if (!image) ctx.draft.warnings.push(`the largest contentful paint's image ${element.url} has no emulated resource that finished before it: its marker waits only for the first paint and the parser`);
  return image ? [{ node: image, rule: "paint-lcp" }] : [];
}

/**
 * The web fonts a text paint waited for, each with its face's block period: text waits for a font
 * only until that period ends (the replay's font_display.rs), so a font of the element's face
 * still loading when the text was painted counts too (the period had ended: a slow server); from
 * recordings without the element's font, the fonts that had arrived by then. A font no rule of
 * the page names (the FontFace API) has Chromium's default display, `auto`.
 */
function textFonts(element: LcpElement, done: GraphNode[], started: GraphNode[], faces: FontFaceRule[]): Content[] {
  const displays = new Map<string, string>();
  for (const f of faces.filter(blocksText)) for (const u of f.urls) if (!displays.has(urlKey(u))) displays.set(urlKey(u), f.display);
  const content = (n: GraphNode): Content => ({ node: n, rule: displays.get(urlKey(n.resource!.url)) === "block" ? "font-display-block" : "font-display-auto" });
  const urlsOf = (fs: FontFaceRule[]) => new Set(fs.flatMap((f) => f.urls.map(urlKey)));
  if (element.font) {
    const waited = urlsOf(matchFaces(faces, element.font).filter(blocksText));
    return started.filter((n) => waited.has(urlKey(n.resource!.url))).map(content);
  }
  const swapped = urlsOf(faces.filter((f) => !blocksText(f)));
  // `displays` holds exactly the URLs of faces that keep text invisible.
  return done.filter((n) => displays.has(urlKey(n.resource!.url)) || !swapped.has(urlKey(n.resource!.url))).map(content);
}

/** The `@font-face` rules of the main frame's style sheets and documents (`<style>` elements). */
export function mainFrameFaces(ctx: BuildContext, body: (sha256: string) => Buffer | null): FontFaceRule[] {
  const out: FontFaceRule[] = [];
  for (const e of ctx.archive) {
    if (e.frameId !== ctx.mainFrameId || !e.body || (e.resourceType !== "Stylesheet" && e.resourceType !== "Document")) continue;
    const text = body(e.body.sha256)?.toString("utf8");
    if (text?.includes("@font-face")) out.push(...scanFontFaces(text, e.url));
  }
  return out;
}

function describe(e: LcpElement | null): string {
  if (!e) return "element unknown";
  return e.type === "image" && e.url ? `image ${urlTail(e.url)}` : `${e.type} ${e.nodeName}`;
}
