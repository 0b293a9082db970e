import type { Activity, Segment } from "./activities.js";
import { isSegment } from "./activities.js";
import type { BuildContext } from "./context.js";
import { urlTail } from "./context.js";
import type { GraphNode, ScriptType } from "./graph.js";
import type { Mark } from "./trace-intervals.js";
import { sameUrl } from "./url-key.js";

/**
 * A node for every piece of every activity, joined in the order they ran: a piece leads into the
 * activity nested after it, which leads into the next piece ("continuation"; R4 when a script
 * interrupted the parser).
 */
export function buildActivityNodes(ctx: BuildContext, activities: Activity[], timerInstalls: Map<number, Mark>): void {
  const fires = new Map<number, number>();
  for (const a of activities) {
    const frameId = frameOfActivity(ctx, a);
    let segIndex = 0;
    for (const piece of a.pieces) {
      if (!isSegment(piece)) continue;
      ctx.segmentNode.set(piece, makeNode(ctx, a, frameId, piece, segIndex++, fires, timerInstalls));
    }
  }
  for (const a of activities) {
    // A style sheet evaluated inside another task (the parser's, a script's) takes its time but
    // depends only on its file (R18): the task goes on around it without waiting on it.
    const nodes = a.pieces.filter((p) => isSegment(p) || p.kind !== "css").map((p) => (isSegment(p) ? ctx.segmentNode.get(p)! : p));
    for (let i = 1; i < nodes.length; i++) {
      const prev = nodes[i - 1]!;
      const next = nodes[i]!;
      const from = isNode(prev) ? prev : lastOf(ctx, prev);
      const to = isNode(next) ? next : firstOf(ctx, next);
      const rule = !isNode(prev) && a.kind === "parse" && (prev as Activity).kind === "script" ? "R4" : isNode(next) ? "continuation" : ruleOf(from, to);
      ctx.draft.edge(from, to, rule, "observed");
    }
  }
  for (const a of activities) {
    ctx.first.set(a, firstOf(ctx, a));
    ctx.last.set(a, lastOf(ctx, a));
  }
  ctx.computations = [...ctx.segmentNode.values()].sort((x, y) => x.start - y.start);
}

function isNode(x: GraphNode | Activity): x is GraphNode {
  return (x as GraphNode).id !== undefined;
}

function firstOf(ctx: BuildContext, a: Activity): GraphNode {
  const p = a.pieces[0]!;
  return isSegment(p) ? ctx.segmentNode.get(p)! : firstOf(ctx, p);
}

function lastOf(ctx: BuildContext, a: Activity): GraphNode {
  const p = a.pieces[a.pieces.length - 1]!;
  return isSegment(p) ? ctx.segmentNode.get(p)! : lastOf(ctx, p);
}

function ruleOf(from: GraphNode, to: GraphNode): string {
  // A piece of an activity starting a nested one: the nested kind decides, as in Table 3.1.
  if (to.kind === "script") return from.kind === "parse" ? "R12" : from.kind === "event" ? "R15" : from.kind === "timer" ? "R16" : "R14";
  if (to.kind === "parse") return "R4";
  if (to.kind === "timer") return from.kind === "event" ? "R20" : from.kind === "timer" ? "R21" : "R19";
  if (to.kind === "css") return "R18";
  return "R25";
}

function makeNode(ctx: BuildContext, a: Activity, frameId: string, seg: Segment, segment: number, fires: Map<number, number>, installs: Map<number, Mark>): GraphNode {
  const iv = a.interval;
  const d = iv.args.data ?? iv.args.beginData ?? {};
  const base = { frameId, start: seg.start, end: seg.end, duration: Math.max(0, seg.end - seg.start) };
  const part = segment > 0 ? ` (part ${segment + 1})` : "";
  const call = firstCall(iv);
  let node: GraphNode;
  switch (a.kind) {
    case "parse":
      node = ctx.draft.add({ ...base, kind: "parse", label: "parse", parse: { url: d.url ?? "", startLine: null, endLine: null, index: 0, last: false } });
      break;
    case "script": {
      // A module's evaluation is named once, whatever number of pieces other work cut it into:
      // counted off per piece, gen-pagepath-7's first module named its second piece after the
      // second module, which was left unnamed, without parents, and ran at navigation start.
      const url: string = d.url ?? call?.url ?? (iv.name === "v8.evaluateModule" ? (segment === 0 ? nextModuleUrl(ctx, frameId) : ctx.segmentNode.get(a.pieces.find(isSegment)!)?.script?.url ?? "") : "");
      const type = scriptType(ctx, iv.name, url, frameId);
      // The trace counts script lines from 1; the graph, like CDP initiators, from 0.
      const oneBased: number | undefined = d.lineNumber ?? call?.lineNumber;
      // built-ins (promise reactions, iterators) report line 0 with no script: no line to give
      const line = oneBased !== undefined && oneBased > 0 ? oneBased - 1 : null;
      const what = type === "callback" ? (url ? `${call?.functionName || "(anonymous)"} in ${urlTail(url)}` : "promise reaction") : type === "inline" ? `inline script L${(line ?? 0) + 1}` : urlTail(url);
      node = ctx.draft.add({ ...base, kind: "script", label: `${type} ${what}${part}`, script: { url, type, line, segment } });
      break;
    }
    case "css":
      node = ctx.draft.add({ ...base, kind: "css", label: `css ${urlTail(d.styleSheetUrl ?? "")}${part}`, css: { url: d.styleSheetUrl ?? "", segment } });
      break;
    case "timer": {
      const timerId = Number(d.timerId);
      const fire = segment === 0 ? (fires.set(timerId, (fires.get(timerId) ?? -1) + 1), fires.get(timerId)!) : fires.get(timerId) ?? 0;
      const install = installs.get(timerId)?.args.data ?? {};
      node = ctx.draft.add({
        ...base, kind: "timer", label: `timer ${call?.functionName || timerId} ${install.timeout ?? "?"} ms${fire > 0 ? ` fire ${fire + 1}` : ""}${part}`,
        timer: { timerId, timeoutMs: Number(install.timeout ?? 0), singleShot: install.singleShot !== false, fire, segment },
      });
      break;
    }
    case "event": {
      const type: string = iv.name === "EventDispatch" ? d.type ?? "event" : iv.name === "XHRLoad" ? "load" : "readystatechange";
      const target = iv.name === "EventDispatch" ? eventTarget(type) : "xhr";
      const extra = target === "xhr" ? ` ${urlTail(d.url ?? "")}${d.readyState !== undefined ? ` state ${d.readyState}` : ""}` : "";
      node = ctx.draft.add({ ...base, kind: "event", label: `${type}${extra}${part}`, event: { type, target, segment } });
      break;
    }
  }
  const url = call?.url ?? d.url;
  if (url) ctx.callUrl.set(node, url);
  return node;
}

/**
 * The frame an activity ran for. A style sheet's evaluation names no frame in the trace: it is the
 * frame of the task it ran in, or, run on its own, of the frame that fetched the sheet. Taking the
 * main frame instead (as before) made an iframe's style sheet block the page's parser and rendering
 * (gen-pagepath-29: the page's DOMContentLoaded waited for an ad frame's 158 KB sheet, 52% late).
 */
function frameOfActivity(ctx: BuildContext, a: Activity): string {
  for (let x: Activity | null = a; x; x = x.parent) if (x.frameId && ctx.frames.has(x.frameId)) return x.frameId;
  if (a.kind === "css") {
    const url = (a.interval.args.data ?? a.interval.args.beginData ?? {}).styleSheetUrl;
    const fetched = ctx.archive.filter((e) => e.frameId && ctx.frames.has(e.frameId) && sameUrl(e.url, url) && ctx.ms(e.times.start) <= a.interval.start);
    const latest = fetched.sort((x, y) => x.times.start - y.times.start).at(-1);
    if (latest) return latest.frameId!;
  }
  return ctx.mainFrameId;
}

function firstCall(iv: import("./trace-intervals.js").Interval): { url?: string; functionName?: string; lineNumber?: number } | undefined {
  if (iv.name === "FunctionCall") return iv.args.data;
  for (const c of iv.children) {
    const found = firstCall(c);
    if (found) return found;
  }
  return undefined;
}

/** Module evaluations are not named in the trace; they run in document order, so count them off. */
function nextModuleUrl(ctx: BuildContext, frameId: string): string {
  const used = (ctx.modulesSeen.get(frameId) ?? 0) + 1;
  ctx.modulesSeen.set(frameId, used);
  const modules = (ctx.frames.get(frameId)?.docs.at(-1)?.scripts ?? []).filter((s) => s.type === "module" && s.src);
  return modules[used - 1]?.src ?? "";
}

function scriptType(ctx: BuildContext, event: string, url: string, frameId: string): ScriptType {
  if (event === "FunctionCall" || event === "RunMicrotasks") return "callback";
  if (event === "v8.evaluateModule") return "module";
  const frame = ctx.frames.get(frameId);
  for (const doc of frame?.docs ?? []) {
    if (sameUrl(doc.url, url)) return "inline";
    const tag = doc.scripts.find((s) => sameUrl(s.src, url));
    if (tag) return tag.type;
  }
  return "async"; // inserted by script: runs when it arrives (seed 001 §3.7.2)
}

function eventTarget(type: string): "document" | "window" | "element" | "message" | "other" {
  if (type === "DOMContentLoaded" || type === "readystatechange" || type === "visibilitychange") return "document";
  if (type === "load" || type === "error") return "element";
  if (type === "message") return "message";
  if (["pageshow", "pagehide", "resize", "beforeunload", "unload", "popstate", "hashchange"].includes(type)) return "window";
  return "other";
}
