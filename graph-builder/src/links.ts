import type { Activity } from "./activities.js";
import type { BuildContext } from "./context.js";
import { latestBefore, latestFinished, urlTail } from "./context.js";
import type { GraphNode } from "./graph.js";
import { iframeLoadOf, isWindowLoad } from "./markers.js";
import { dynamicModuleEntry, linkModuleGraph, moduleTag } from "./modules.js";
import { renderBlockingSheets } from "./style-recalc.js";
import { ruleFor } from "./rules.js";
import { sameUrl, urlKey } from "./url-key.js";

/**
 * Edges between activities that the trace's nesting does not give: a script waits for its file
 * (R10), deferred scripts for the end of parsing (R17), the parser for a blocking script (R4), scripts
 * for earlier style sheets (R11/R13, Firefox's model as in the thesis), timers for whoever set them
 * (R19-R21), events for what they are about (Appendix A), and iframes for what created them (R5-R8).
 */
export function linkActivities(ctx: BuildContext, activities: Activity[]): void {
  const claimed = new Set<GraphNode>();
  for (const a of activities) {
    const first = ctx.first.get(a)!;
    if (a.kind === "script") linkScript(ctx, a, first);
    else if (a.kind === "css") linkCss(ctx, first);
    else if (a.kind === "timer") linkTimer(ctx, first);
    else if (a.kind === "event" && a.parent === null) linkEvent(ctx, a, first, claimed);
    else if (a.kind === "parse" && a.parent === null && !isDocumentChunk(ctx, first)) attachToLatest(ctx, first);
  }
  linkCssBeforeScripts(ctx);
  linkSyncRequests(ctx);
  linkFrames(ctx);
  linkCrossFrame(ctx, activities);
}

/** A computation that made a synchronous request goes on only once its response is in. */
function linkSyncRequests(ctx: BuildContext): void {
  for (const [seg, node] of ctx.segmentNode) {
    const fetched = seg.syncAfter === undefined ? undefined : ctx.resourceByRequest.get(seg.syncAfter);
    if (fetched) ctx.draft.edge(fetched, node, "sync-xhr", "observed");
  }
}

/**
 * R22-R24: a script, event or timer of one frame that reached into another frame's DOM (it made
 * a request or called code there) depends on that frame's whole document having arrived.
 */
function linkCrossFrame(ctx: BuildContext, activities: Activity[]): void {
  const rule = { script: "R22", event: "R23", timer: "R24" } as Record<string, string>;
  for (const a of activities) {
    const first = ctx.first.get(a)!;
    if (!rule[a.kind]) continue;
    for (const f of a.touchedFrames) {
      if (f === first.frameId) continue;
      const lastChunk = ctx.frames.get(f)?.docs.at(-1)?.chunks.at(-1);
      if (lastChunk && lastChunk.end <= first.start + 1e-6) ctx.draft.edge(lastChunk, first, rule[a.kind]!, "observed");
    }
  }
}

/** Resources by URL (urlKey), made again only when resources were added since. */
const byUrlOf = new WeakMap<BuildContext, { size: number; byUrl: Map<string, GraphNode[]> }>();

function latestResource(ctx: BuildContext, url: string, before: number): GraphNode | undefined {
  // Linking asks once per script and style sheet pair: a scan of every resource each time made a
  // page of a thousand resources spend most of its build here.
  let index = byUrlOf.get(ctx);
  if (!index || index.size !== ctx.resourceByRequest.size) {
    const byUrl = new Map<string, GraphNode[]>();
    for (const r of ctx.resourceByRequest.values()) {
      const key = urlKey(r.resource!.url);
      const list = byUrl.get(key);
      if (list) list.push(r);
      else byUrl.set(key, [r]);
    }
    index = { size: ctx.resourceByRequest.size, byUrl };
    byUrlOf.set(ctx, index);
  }
  let best: GraphNode | undefined;
  for (const r of url ? index.byUrl.get(urlKey(url)) ?? [] : []) {
    if (r.start <= before && (!best || r.start > best.start)) best = r;
  }
  return best;
}

function linkScript(ctx: BuildContext, a: Activity, first: GraphNode): void {
  const s = first.script!;
  const d = ctx.draft;
  if (s.type === "callback") {
    // A promise or fetch callback runs once what it waited for has arrived.
    const fetched = latestFinished(ctx, first.start, (r) =>
      // Promise reactions: fetch() settles promises; XHR reports through events instead.
      s.url ? sameUrl(r.resource!.initiatorUrl, s.url) : r.frameId === first.frameId && r.resource!.resourceType === "Fetch",
    );
    const before = fetched ?? latestBefore(ctx, first.start - 1e-9, (c) => c.frameId === first.frameId && c !== first);
    if (before) d.edge(before, first, fetched ? "fetch-callback" : ruleFor(before, first), "inferred");
    return;
  }
  const doc = ctx.frames.get(first.frameId)?.docs.at(-1);
  if ((s.type === "sync" || s.type === "inline") && a.parent === null && doc) {
    // A blocking script that ran outside the parser's task (it waited for a style sheet or its
    // file): the parser stopped before it and resumed only after it.
    // Even a script whose file came early waits for the parser to reach its tag.
    d.edge(doc.parses.filter((p) => p.end <= first.start + 1e-6).at(-1), first, "R12", "inferred");
    const next = doc.parses.find((p) => p.start >= ctx.last.get(a)!.end - 1e-6);
    if (next) d.edge(ctx.last.get(a), next, "R4", "inferred");
  }
  if (s.type === "inline") return; // otherwise nested in its parse chunk: R12 and R4 come from the nesting
  if (s.type === "module" && !s.url) return linkDynamicModule(ctx, first);
  const res = latestResource(ctx, s.url, first.start);
  if (res) d.edge(res, first, "R10", "observed");
  if (res && s.type === "module") linkModuleGraph(ctx, first, res);
  // Deferred scripts run once the parser is done; an async module as soon as its graph is in.
  const deferred = s.type === "defer" || (s.type === "module" && !(doc && moduleTag([doc], s.url)?.async));
  if (deferred && doc?.parses.length) {
    const lastParse = [...doc.parses].reverse().find((p) => p.end <= first.start) ?? doc.parses.at(-1)!;
    d.edge(lastParse, first, "R17", "inferred");
  }
}

/** A module loaded by import() runs once its static graph is in, like an async script: no R17. */
function linkDynamicModule(ctx: BuildContext, first: GraphNode): void {
  const entry = dynamicModuleEntry(ctx, first);
  if (!entry) {
    // Without a module to wait for it still ran where the main thread had it, after the frame's
    // work before it; with no parent at all it would run at navigation start, and what it started
    // with it (real-gentelella: echarts' callbacks, before echarts had arrived).
    ctx.draft.warnings.push(`a module evaluation at ${first.start.toFixed(1)} ms: no arrived module found that it could run; it follows the frame's work before it`);
    attachToLatest(ctx, first);
    return;
  }
  first.script!.url = entry.resource!.url;
  first.label = `module ${urlTail(entry.resource!.url)}`;
  ctx.callUrl.set(first, entry.resource!.url);
  ctx.draft.edge(entry, first, "R10", "inferred");
  linkModuleGraph(ctx, first, entry);
}

function linkCss(ctx: BuildContext, first: GraphNode): void {
  const res = latestResource(ctx, first.css!.url, first.start);
  if (res) ctx.draft.edge(res, first, "R18", "observed");
}

/**
 * Style sheets requested before a parser-blocking script must be evaluated before it runs; so must
 * every sheet the parser inserted before a deferred script (`defer`, or a module without `async`)
 * runs, since HTML runs those at the end of parsing only once no sheet blocks scripts. On
 * real-gentelella at 25 Mbit/s 20 ms, Chromium's DOMContentLoaded waited for the 157 KB style sheet
 * that ended 19 ms after the module entry's file; in the loopback recording it was in long before.
 */
function linkCssBeforeScripts(ctx: BuildContext): void {
  const sheets = [...ctx.segmentNode.values()].filter((n) => n.kind === "css" && n.css!.segment === 0);
  const blocksRendering = renderBlockingSheets(ctx);
  const importedBy = importingSheets(ctx);
  for (const n of ctx.first.values()) {
    if (n.kind !== "script" || n.script!.segment > 0) continue;
    const type = n.script!.type;
    const deferred = type === "defer" || (type === "module" && deferredModule(ctx, n));
    if (type !== "sync" && type !== "inline" && !deferred) continue;
    const discovered = type === "sync" ? latestResource(ctx, n.script!.url, n.start)?.start ?? n.start : n.start;
    for (const css of sheets) {
      if (css.frameId !== n.frameId || css.end > n.start) continue;
      const sheetRes = importedBy(latestResource(ctx, css.css!.url, css.start));
      if (!sheetRes || sheetRes.start > discovered || (deferred && !blocksRendering(css))) continue;
      ctx.draft.edge(css, n, type === "inline" ? "R13" : "R11", "inferred");
    }
  }
}

/**
 * The file of the sheet whose `@import` chain brought a sheet in (the sheet's own file when nothing
 * imported it): a sheet is not loaded, for the scripts after it, until every sheet it imports is.
 * real-jquery-ui's all.css imports base.css, which imports twenty more; Chromium ran require.js only
 * once the last of them was in (DOMContentLoaded at 1,100 ms at 100 Mbit/s 80 ms), the emulated
 * browser as soon as all.css was (863 ms).
 */
function importingSheets(ctx: BuildContext): (sheetRes: GraphNode | undefined) => GraphNode | undefined {
  const d = ctx.draft;
  const importer = new Map<string, GraphNode>();
  for (const e of d.edges) {
    const from = d.byId.get(e.from);
    const to = d.byId.get(e.to);
    if (e.rule === "R2" && from?.kind === "css" && to?.resource?.resourceType === "Stylesheet") importer.set(to.id, from);
  }
  return (sheetRes) => {
    const seen = new Set<string>();
    let res = sheetRes;
    while (res && !seen.has(res.id)) {
      seen.add(res.id);
      // The importing sheet may have been parsed in pieces; any piece names its file.
      const sheet = importer.get(res.id);
      const parentFile = sheet && latestResource(ctx, sheet.css!.url, sheet.start);
      if (!parentFile) break;
      res = parentFile;
    }
    return res;
  };
}

/** A `<script type=module>` of the document without `async` (not a module loaded by import()). */
function deferredModule(ctx: BuildContext, n: GraphNode): boolean {
  const doc = ctx.frames.get(n.frameId)?.docs.at(-1);
  const tag = doc && n.script!.url ? moduleTag([doc], n.script!.url) : undefined;
  return !!tag && !tag.async;
}

function linkTimer(ctx: BuildContext, first: GraphNode): void {
  const t = first.timer!;
  let installer: GraphNode | undefined;
  if (t.fire > 0) {
    installer = [...ctx.first.values()].filter((n) => n.kind === "timer" && n.timer!.timerId === t.timerId && n.timer!.fire === t.fire - 1)[0];
    if (installer) installer = lastPieceOf(ctx, installer);
  } else {
    for (const [seg, node] of ctx.segmentNode) if (seg.timers.includes(t.timerId) && node.start <= first.start) installer = node;
  }
  if (installer) ctx.draft.edge(installer, first, ruleFor(installer, first), t.fire > 0 ? "inferred" : "observed");
  else ctx.draft.warnings.push(`timer ${t.timerId} fired but its installation was not traced`);
}

function lastPieceOf(ctx: BuildContext, first: GraphNode): GraphNode {
  for (const [a, f] of ctx.first) if (f === first) return ctx.last.get(a)!;
  return first;
}

/** Element load events go to the latest resource of the frame that finished before them and is not yet claimed. */
function linkEvent(ctx: BuildContext, a: Activity, first: GraphNode, claimed: Set<GraphNode>): void {
  const e = first.event!;
  const d = ctx.draft;
  const data = a.interval.args.data ?? {};
  if (e.target === "xhr" && data.url) {
    const res = latestResource(ctx, data.url, first.start);
    if (res && Number(data.readyState ?? 4) >= 2) return d.edge(res, first, "R25", "observed");
  }
  if (e.type === "DOMContentLoaded" || e.type === "readystatechange") {
    const doc = ctx.frames.get(first.frameId)?.docs.at(-1);
    const lastParse = doc?.parses.filter((p) => p.end <= first.start + 1e-6).at(-1);
    if (lastParse) return d.edge(lastParse, first, "completion-event", "observed");
  }
  if (e.target === "element" && e.type !== "load") return attachToLatest(ctx, first);
  if (e.type === "load" || e.type === "error") {
    // A window's or an iframe's load: the load marker is its parent (markers.ts).
    if (isWindowLoad(ctx, first, ctx.last.get(a)!) || iframeLoadOf(ctx, first, ctx.last.get(a)!)) return;
    const res = latestFinished(ctx, first.start, (r) => r.frameId === first.frameId && !claimed.has(r));
    if (res) {
      claimed.add(res);
      return d.edge(res, first, "R25", "inferred");
    }
  }
  attachToLatest(ctx, first);
}

/**
 * A parse no fetched document holds: the rest of a document a script wrote (`document.write` into
 * an iframe it made, whose parser finishes in a later task), so it follows the work before it.
 * Left alone it had no parent and started at navigation start, with what it asks for.
 */
function isDocumentChunk(ctx: BuildContext, n: GraphNode): boolean {
  for (const frame of ctx.frames.values()) for (const doc of frame.docs) if (doc.parses.includes(n)) return true;
  return false;
}

/** `n` follows the work of its frame that ended last before it began (R25 for an event). */
function attachToLatest(ctx: BuildContext, n: GraphNode): void {
  const before = latestBefore(ctx, n.start - 1e-9, (c) => c.frameId === n.frameId && c !== n && c.end <= n.start + 1e-6);
  if (before) ctx.draft.edge(before, n, ruleFor(before, n), "inferred");
}

/** An iframe's first download chunk hangs off the tag that declared it or the code that made it. */
function linkFrames(ctx: BuildContext): void {
  for (const frame of ctx.frames.values()) {
    if (frame.id === ctx.mainFrameId || !frame.parentId) continue;
    for (const doc of frame.docs) {
      const chunk0 = doc.chunks[0];
      if (!chunk0) continue;
      const init = doc.entries[0]!.initiator;
      const parentDoc = ctx.frames.get(frame.parentId)?.docs.find((x) => sameUrl(x.url, init.url)) ?? ctx.frames.get(frame.parentId)?.docs.at(-1);
      if (init.type === "parser" && parentDoc?.parses.length) {
        const line = init.lineNumber ?? 0;
        const chunk = parentDoc.parses.find((p) => (p.parse!.startLine ?? 0) <= line && line <= (p.parse!.endLine ?? Infinity)) ?? parentDoc.parses.at(-1)!;
        ctx.draft.edge(chunk, chunk0, "R5", "observed");
        continue;
      }
      const maker = latestBefore(ctx, chunk0.start, (c) => c.frameId === frame.parentId && c.kind !== "parse" && c.kind !== "css" && (!init.url || sameUrl(ctx.callUrl.get(c), init.url)));
      const fallback = maker ?? latestBefore(ctx, chunk0.start, (c) => c.frameId === frame.parentId);
      if (fallback) ctx.draft.edge(fallback, chunk0, ruleFor(fallback, chunk0), maker ? "observed" : "inferred");
      else ctx.draft.warnings.push(`iframe ${doc.url}: nothing in its parent frame found to have created it`);
    }
  }
}
