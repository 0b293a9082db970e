import type { Activity, Segment } from "./activities.js";
import { isSegment } from "./activities.js";
import type { BuildContext, DocumentState, FrameState } from "./context.js";
import { urlTail } from "./context.js";
import { offsetAfterLine, scanScripts } from "./html-scripts.js";
import { requestChains, resourceInfo } from "./resources.js";

type P = Record<string, any>;

/**
 * Frames and their HTML documents: each document becomes download chunks (its bytes as they
 * arrived, Network.dataReceived) and parse chunks (ParseHTML pieces). A parse chunk depends on the
 * previous one (R3) and on the download chunk holding the last line it parsed; download chunks
 * chain (R9).
 */
export function buildFrames(ctx: BuildContext, body: (sha: string) => Buffer | null): void {
  const byRequest = requestChains(ctx.archive, (e) => e.resourceType === "Document" && e.frameId !== null);
  const parents = new Map<string, string | null>();
  for (const { method, params } of ctx.events as { method: string; params: P }[]) {
    if (method === "Page.frameAttached") parents.set(params.frameId, params.parentFrameId ?? null);
    if (method === "Page.frameNavigated" && params.frame?.parentId) parents.set(params.frame.id, params.frame.parentId);
  }
  const lifecycle = new Map(ctx.manifest.lifecycle.frames.map((f) => [f.frameId, f]));
  for (const [requestId, hops] of byRequest) {
    const final = hops[hops.length - 1]!;
    if (!final.response || final.failure) continue;
    const frameId = final.frameId!;
    let frame = ctx.frames.get(frameId);
    if (!frame) {
      const lc = lifecycle.get(frameId);
      frame = { id: frameId, parentId: parents.get(frameId) ?? null, url: final.url, docs: [], recordedDcl: lc?.domContentLoaded ?? null, recordedLoad: lc?.load ?? null };
      ctx.frames.set(frameId, frame);
    }
    frame.url = final.url;
    const html = final.body ? body(final.body.sha256) : null;
    frame.docs.push({
      frameId, url: final.url, requestId, entries: hops, body: html,
      scripts: html ? scanScripts(html.toString("utf8"), final.url) : [],
      chunks: [], parses: [],
    });
  }
}

/** Parse chunk nodes for every ParseHTML activity, then the download chunks they need. */
export function buildDocuments(ctx: BuildContext, activities: Activity[]): void {
  for (const frame of ctx.frames.values()) {
    for (const doc of frame.docs) {
      const parses = activities.filter((a) => a.kind === "parse" && a.frameId === frame.id && parseUrl(a) === doc.url);
      buildChunks(ctx, frame, doc, parses);
    }
  }
}

/**
 * Where a piece of one ParseHTML stopped: at the inline script that interrupted it, or at the tag
 * of the last request it sent (CDP initiator line). Lines are 0-based.
 */
function pieceEndLine(ctx: BuildContext, doc: DocumentState, seg: Segment, next: Segment | Activity | undefined): number | null {
  if (seg.requests.length) {
    const lines = seg.requests.map((id) => ctx.archive.find((e) => e.requestId === id)?.initiator.lineNumber).filter((l): l is number => typeof l === "number");
    if (lines.length) return Math.max(...lines);
  }
  if (next && !isSegment(next) && next.kind === "script") {
    const d = next.interval.args.data ?? {};
    // An inline script's line is the document's; an external one's is its own file's, so use the
    // line of the tag that fetched it instead.
    if (d.url === doc.url && typeof d.lineNumber === "number") return d.lineNumber - 1;
    const tag = ctx.archive.find((e) => e.url === d.url && e.initiator.url === doc.url && typeof e.initiator.lineNumber === "number");
    if (tag) return tag.initiator.lineNumber;
  }
  return null;
}

function parseUrl(a: Activity): string {
  return a.interval.args.beginData?.url ?? "";
}

function buildChunks(ctx: BuildContext, frame: FrameState, doc: DocumentState, parses: Activity[]): void {
  const final = doc.entries[doc.entries.length - 1]!;
  const arrivals: { at: number; bytes: number }[] = [];
  for (const { method, params } of ctx.events as { method: string; params: P }[]) {
    if (method === "Network.dataReceived" && params.requestId === doc.requestId) arrivals.push({ at: ctx.ms(params.timestamp), bytes: params.dataLength ?? 0 });
  }
  const total = doc.body?.length ?? arrivals.reduce((s, a) => s + a.bytes, 0);
  const cumulative: number[] = [];
  arrivals.reduce((s, a, i) => (cumulative[i] = s + a.bytes), 0);
  // Which arrival each parse piece needed: the one that completed the last line it parsed.
  const needs: { node: import("./graph.js").GraphNode; arrival: number }[] = [];
  let parseIndex = 0;
  for (const a of parses) {
    const endLine: number | null = a.interval.args.endData?.endLine ?? null;
    const startLine: number | null = a.interval.args.beginData?.startLine ?? null;
    const needed = doc.body && endLine !== null ? offsetAfterLine(doc.body, endLine) : 0;
    let arrival = cumulative.findIndex((c) => c >= needed);
    if (arrival < 0) arrival = Math.max(0, arrivals.length - 1);
    let from = startLine;
    a.pieces.forEach((piece, i) => {
      if (!isSegment(piece)) return;
      const node = ctx.segmentNode.get(piece)!;
      const to = i === a.pieces.length - 1 ? endLine : pieceEndLine(ctx, doc, piece, a.pieces[i + 1]) ?? from;
      node.parse = { url: doc.url, startLine: from, endLine: to, index: parseIndex++, last: false };
      node.label = `parse ${urlTail(doc.url)} L${(from ?? 0) + 1}-${(to ?? 0) + 1}`;
      doc.parses.push(node);
      needs.push({ node, arrival });
      from = to;
    });
  }
  doc.parses.sort((x, y) => x.start - y.start);
  doc.parses.forEach((n, i) => {
    n.parse!.index = i;
    n.parse!.last = i === doc.parses.length - 1;
    if (i > 0) ctx.draft.edge(doc.parses[i - 1], n, "R3", "observed");
  });

  const boundaries = [...new Set([...needs.map((n) => n.arrival), Math.max(0, arrivals.length - 1)])].sort((a, b) => a - b);
  const start = ctx.ms(final.times.start);
  const end = final.times.end !== null ? ctx.ms(final.times.end) : start;
  let prevBytes = 0;
  let prevEnd = start;
  const chunkAt = new Map<number, import("./graph.js").GraphNode>();
  boundaries.forEach((b, i) => {
    const last = i === boundaries.length - 1;
    const upTo = last ? total : cumulative[b] ?? total;
    const at = last ? end : arrivals[b]?.at ?? end;
    const info = resourceInfo(doc.entries);
    const node = ctx.draft.add({
      kind: "download", frameId: frame.id, label: `${urlTail(doc.url)} bytes ${prevBytes}-${upTo}`,
      start: prevEnd, end: at, duration: Math.max(0, at - prevEnd),
      resource: { ...info, bodySize: upTo - prevBytes },
      chunk: { index: i, offset: prevBytes, bytes: upTo - prevBytes, last },
    });
    if (i > 0) ctx.draft.edge(doc.chunks[i - 1], node, "R9", "observed");
    doc.chunks.push(node);
    chunkAt.set(b, node);
    prevBytes = upTo;
    prevEnd = at;
  });
  for (const { node, arrival } of needs) ctx.draft.edge(chunkAt.get(arrival) ?? doc.chunks[0], node, "R3", "observed");
}
