import type { BuildContext } from "./context.js";
import type { GraphNode } from "./graph.js";
import { renderBlockingSheets } from "./style-recalc.js";

const EPS = 1e-3;

/**
 * The main frame's renderings before load, as computations (`render` nodes): each task of the main
 * thread in which Chromium styled, laid out or painted the frame (the trace's `UpdateLayoutTree`,
 * `Layout` and `Paint` events),
 * lasting the task less the script, timers and events that ran inside it (they have nodes of their
 * own). The thesis's model has no such work; Chromium's main thread does it between tasks, and two
 * things wait for it:
 *
 * - what layout requests: a web font or background image CSS references, a lazy image, asked for
 *   inside the rendering (`render` edge to the resource). Style and layout come before the paint,
 *   so a rendering that asked for something is cut after its last request into two `render`
 *   nodes joined by a `continuation` edge, and the requests wait for the first only: on
 *   real-gentelella the first rendering (146 ms) asked for the page's four web fonts 14 ms in;
 *   waiting for all of it, the emulated browser sent them 132 ms late;
 * - the parser: after a chunk it yields so that the frame can render, and the next chunk runs after
 *   the rendering. On real-pdfjs-viewer the parser stopped 17 ms before the end of the document for
 *   the first frame, whose layout requested the toolbar's 20 images; DOMContentLoaded came after
 *   the frame, so the load event waited for those images. Without the edge, the emulated browser
 *   reached DOMContentLoaded and load before asking for them.
 *
 * A rendering waits for the frame rendered before it, the last computation of the main frame that
 * had ended when it began, and the render-blocking style sheets parsed by then: Chromium renders
 * nothing until every one is in. When that computation is a script from a file, the rendering
 * waits for it only if it had started (`render-raced`), and for the last other computation.
 */
export function buildRenderNodes(ctx: BuildContext): void {
  const d = ctx.draft;
  const main = ctx.frames.get(ctx.mainFrameId)!;
  const loadAt = main.load?.start ?? Infinity;
  const inMain = ctx.computations.filter((c) => c.frameId === main.id);
  const blocks = renderBlockingSheets(ctx);
  const sheets = inMain.filter((c) => c.kind === "css" && blocks(c));
  const withoutFetchedScripts = inMain.filter((c) => !fetchedScript(c));
  const chunkPairs = main.docs.flatMap((doc) => doc.parses.slice(1).map((p, i) => [doc.parses[i]!, p] as const));
  const renderBound = d.nodes.filter((n) => n.kind === "resource" && n.frameId === main.id && n.resource!.lazyBound);
  const syncWaits = synchronousWaits(ctx);
  let previous: GraphNode | undefined;
  let previousOfParser: GraphNode | undefined;
  // A rendering that began before the navigation did is of the page the load replaced (seen: the
  // blank page painted 17 ms before, on 3 of 300 generated sites): not this load's work.
  for (const task of ctx.mainRenders.filter((t) => t.start >= 0 && t.start < loadAt)) {
    const busy = (from: number, to: number) => {
      const inside = (i: { start: number; end: number }) => i.start >= from - EPS && i.end <= to + EPS;
      const nested = ctx.computations.filter(inside).reduce((sum, c) => sum + c.duration, 0);
      const waited = syncWaits.filter(inside).reduce((sum, w) => sum + (w.end - w.start), 0);
      return Math.max(0, to - from - nested - waited);
    };
    const asked = renderBound.filter((r) => r.start >= task.start - EPS && r.start <= task.end + EPS);
    // Style and layout ask for what they find before the frame is painted: the rendering is cut
    // after its last request, which then waits only for the part before.
    const cut = Math.max(...asked.map((r) => r.start));
    const split = cut > task.start + EPS && cut < task.end - EPS;
    const render = d.add({ kind: "render", frameId: main.id, label: "rendering (style, layout, paint)", start: task.start, end: split ? cut : task.end, duration: busy(task.start, split ? cut : task.end) });
    const before = latestEnded(inMain, task.start);
    // A rendering the parser yielded to follows the parser's renderings, not one that showed an
    // async script's work: on gen-pagepath-20 an async script's 27 renderings chained every later
    // one, and DOMContentLoaded behind them, to its arrival, 3.4 s after Chromium's at 2 Mbit/s.
    const ofParser = !before || parserWork(before);
    d.edge(ofParser ? previousOfParser : previous, render, "render", "observed");
    // A script from a file ran before the frame because its bytes were in by then: where they come
    // later, Chromium renders without it (the parser waits for a sync script; rendering does not).
    // On gen-pagepath-6 at 5 Mbit/s 50 ms the first frame came as the head's sheet arrived, 400 ms
    // before the body's 82 KB sync script, and its layout asked for three lazy images with it.
    if (before && fetchedScript(before)) {
      d.edge(before, render, "render-raced", "inferred");
      d.edge(latestEnded(withoutFetchedScripts, task.start), render, "render", "inferred");
    } else d.edge(before, render, "render", "inferred");
    const sheetsBefore = sheets.filter((sheet) => sheet.end <= task.start + EPS && sheet.end > (previous?.start ?? -Infinity));
    for (const sheet of sheetsBefore) d.edge(sheet, render, "render", "inferred");
    // The first rendering can share its task with the work it shows (the parser's first chunk, a
    // style sheet's evaluation, run just before the frame was styled, as a loaded machine's
    // Chromium was seen to do): then that work, not nothing, comes before it.
    if (!previous && !before && sheetsBefore.length === 0) d.edge(latestEnded(inMain.filter((c) => c.start >= task.start - EPS), task.end), render, "render", "inferred");
    for (const r of asked) d.edge(render, r, "render", "observed");
    const rest = split ? d.add({ kind: "render", frameId: main.id, label: "rendering (style, layout, paint) (part 2)", start: cut, end: task.end, duration: busy(cut, task.end) }) : render;
    if (split) d.edge(render, rest, "continuation", "observed");
    // The parser waits for a rendering it yielded to, not for one that came after other work: an
    // async script that happened to run before the frame (gen-pagepath-29: its arrival, 1 s late in
    // a replay, held the parser and every iframe behind it).
    const resumed = chunkPairs.find(([before, after]) => before.end <= task.start + EPS && after.start >= task.end - EPS);
    if (ofParser) {
      d.edge(rest, resumed?.[1], "render", "observed");
      previousOfParser = rest;
    }
    previous = rest;
  }
}

/** A script whose run waited for its file to arrive. */
function fetchedScript(c: GraphNode): boolean {
  return c.kind === "script" && ["sync", "async", "defer", "module"].includes(c.script!.type);
}

/** Work on the parser's own path: its chunks, the scripts it ran (inline and sync) and style sheets. */
function parserWork(c: GraphNode): boolean {
  return c.kind === "parse" || c.kind === "css" || (c.kind === "script" && (c.script!.type === "inline" || c.script!.type === "sync"));
}

/** The computation that ended last by `t` (latest start among those ended). */
function latestEnded(computations: GraphNode[], t: number): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const c of computations) {
    if (c.start > t) break;
    if (c.end <= t + EPS) best = c;
  }
  return best;
}

/**
 * When the main thread sat blocked on a synchronous request (a sync XHR): from the end of the piece
 * that sent it to the start of the piece its response let go on. A task holding a rendering can
 * hold such waits too, and they are the request's time, not the rendering's: real-vis-docs's
 * DOMContentLoaded handlers, run in the task of a forced layout, fetched 15 pages one after another,
 * and the 517 ms they took were counted as a 519 ms rendering that the emulated browser then ran
 * before the handlers, their fetches again after it (DOMContentLoaded 30-40% late).
 */
function synchronousWaits(ctx: BuildContext): Array<{ start: number; end: number }> {
  const edges = ctx.draft.edges;
  const waits: Array<{ start: number; end: number }> = [];
  for (const e of edges.filter((e) => e.rule === "sync-xhr")) {
    const piece = ctx.draft.byId.get(e.to)!;
    const sent = edges.find((c) => c.to === e.to && c.rule === "continuation");
    const before = sent && ctx.draft.byId.get(sent.from);
    if (before && before.end <= piece.start) waits.push({ start: before.end, end: piece.start });
  }
  return waits;
}
