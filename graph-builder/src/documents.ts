import type { Activity, Segment } from "./activities.js";
import { isSegment } from "./activities.js";
import type { BuildContext, DocumentState, FrameState } from "./context.js";
import { chunkHolding, urlTail } from "./context.js";
import { lineCounter, offsetAfterLine, scanImportMap, scanLazyImages, scanPreconnects, scanPrefetches, scanScripts } from "./html-scripts.js";
import type { GraphNode } from "./graph.js";
import { requestChains } from "@pagepath/profiler";
import { resourceInfo } from "./resources.js";
import { sameUrl } from "./url-key.js";

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
    const text = html?.toString("utf8") ?? "";
    frame.docs.push({
      frameId, url: final.url, requestId, entries: hops, body: html,
      scripts: scanScripts(text, final.url),
      prefetches: scanPrefetches(text, final.url),
      preconnects: scanPreconnects(text, final.url),
      importMap: scanImportMap(text, final.url),
      lazyImages: scanLazyImages(text, final.url),
      chunks: [], parses: [],
    });
  }
}

/**
 * Parse chunk nodes for every ParseHTML activity, then the download chunks they need. A parse that
 * a script ran after DOMContentLoaded (markup a page inserts, which the trace names after the
 * document) is not the document's: the parser had finished, and taking it for a chunk would make
 * DOMContentLoaded wait for work that came after it.
 */
export function buildDocuments(ctx: BuildContext, activities: Activity[]): void {
  for (const frame of ctx.frames.values()) {
    // With one document only: the recorded DOMContentLoaded is the frame's first document's.
    const finished = frame.docs.length === 1 ? (frame.recordedDcl ?? Infinity) : Infinity;
    const inserted = (a: Activity) => a.interval.start > finished;
    for (const doc of frame.docs) {
      const parses = activities.filter((a) => a.kind === "parse" && a.frameId === frame.id && sameUrl(parseUrl(a), doc.url) && !inserted(a));
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
    if (sameUrl(d.url, doc.url) && typeof d.lineNumber === "number") return d.lineNumber - 1;
    const tag = ctx.archive.find((e) => sameUrl(e.url, d.url) && sameUrl(e.initiator.url, doc.url) && typeof e.initiator.lineNumber === "number");
    if (tag) return tag.initiator.lineNumber;
  }
  return null;
}

function parseUrl(a: Activity): string {
  return a.interval.args.beginData?.url ?? "";
}

/**
 * Where the document's bytes are cut into download chunks: after the last line of every parse
 * piece, and after every tag the preload scanner or the parser fetched from, so that a replay over
 * any link releases each piece and each request when the bytes it needs arrive, whatever link the
 * recording was made on (a document recorded on loopback arrives in one piece). Cuts closer than a
 * packet are merged into the later one: finer cuts could not change when bytes arrive.
 */
const MIN_CHUNK_BYTES = 1460;

function chunkCuts(ctx: BuildContext, doc: DocumentState, pieceOffsets: number[], total: number): number[] {
  const offsets = [...pieceOffsets];
  if (doc.body) {
    for (const e of ctx.archive) {
      const line = e.initiator.lineNumber;
      if ((e.initiator.type === "parser" || e.initiator.type === "preload") && typeof line === "number" && sameUrl(e.initiator.url, doc.url)) {
        offsets.push(offsetAfterLine(doc.body, line));
      }
    }
  }
  const cuts: number[] = [];
  for (const o of [...offsets.filter((o) => o > 0 && o < total)].sort((a, b) => a - b)) {
    if (cuts.length && o - cuts[cuts.length - 1]! < MIN_CHUNK_BYTES) cuts[cuts.length - 1] = o;
    else cuts.push(o);
  }
  if (cuts.length && total - cuts[cuts.length - 1]! < MIN_CHUNK_BYTES) cuts.pop();
  return [...cuts, total];
}

/**
 * The parse chunk in which the parser reached <body> (where </head> ends, or the first chunk, when
 * the document has no such tag): until then Chromium's network stack holds low-priority requests
 * back harder (see the emulated browser's resource scheduler). Returns the byte offset where the
 * parser gets there, which a chunk recorded on loopback (the whole document at once) may hold long
 * before its end; null without either tag.
 */
function markBodyReached(doc: DocumentState): number | null {
  for (const p of doc.parses) p.parse!.bodyReached = false;
  if (!doc.parses.length) return null;
  const html = doc.body?.toString("latin1") ?? "";
  const tag = /<body\b[^>]*>/i.exec(html) ?? /<\/head\s*>/i.exec(html);
  const at = tag?.index;
  const line = at === undefined ? 0 : lineCounter(html)(at);
  const reached = at === undefined ? doc.parses[0]! : doc.parses.find((p) => p.parse!.endLine !== null && p.parse!.endLine >= line) ?? doc.parses.at(-1)!;
  reached.parse!.bodyReached = true;
  if (!tag) return null;
  reached.parse!.bodyByte = tag.index + tag[0].length;
  return reached.parse!.bodyByte;
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
  // The bytes each parse piece needed: up to the end of the last line it parsed.
  const needs: { node: GraphNode; offset: number }[] = [];
  let parseIndex = 0;
  for (const a of parses) {
    const endLine: number | null = a.interval.args.endData?.endLine ?? null;
    const startLine: number | null = a.interval.args.beginData?.startLine ?? null;
    let from = startLine;
    a.pieces.forEach((piece, i) => {
      if (!isSegment(piece)) return;
      const node = ctx.segmentNode.get(piece)!;
      const to = i === a.pieces.length - 1 ? endLine : pieceEndLine(ctx, doc, piece, a.pieces[i + 1]) ?? from;
      node.parse = { url: doc.url, startLine: from, endLine: to, index: parseIndex++, last: false };
      node.label = `parse ${urlTail(doc.url)} L${(from ?? 0) + 1}-${(to ?? 0) + 1}`;
      doc.parses.push(node);
      needs.push({ node, offset: doc.body && to !== null ? offsetAfterLine(doc.body, to) : total });
      from = to;
    });
  }
  doc.parses.sort((x, y) => x.start - y.start);
  doc.parses.forEach((n, i) => {
    n.parse!.index = i;
    n.parse!.last = i === doc.parses.length - 1;
    if (i > 0) ctx.draft.edge(doc.parses[i - 1], n, "R3", "observed");
  });
  const bodyByte = markBodyReached(doc);

  const start = ctx.ms(final.times.start);
  const end = final.times.end !== null ? ctx.ms(final.times.end) : start;
  // A chunk ends, as recorded, when the arrival that brought its last byte came in.
  const arrivedAt = (upTo: number) => {
    const i = cumulative.findIndex((c) => c >= upTo);
    return i < 0 ? end : Math.min(end, arrivals[i]!.at);
  };
  const info = resourceInfo(doc.entries, ctx.ms);
  let prevBytes = 0;
  let prevEnd = start;
  const cuts = chunkCuts(ctx, doc, [...needs.map((n) => n.offset), ...(bodyByte === null ? [] : [bodyByte])], total);
  cuts.forEach((upTo, i) => {
    const last = i === cuts.length - 1;
    const at = Math.max(prevEnd, last ? end : arrivedAt(upTo));
    const node = ctx.draft.add({
      kind: "download", frameId: frame.id, label: `${urlTail(doc.url)} bytes ${prevBytes}-${upTo}`,
      start: prevEnd, end: at, duration: Math.max(0, at - prevEnd),
      resource: { ...info, bodySize: upTo - prevBytes },
      chunk: { index: i, offset: prevBytes, bytes: upTo - prevBytes, last },
    });
    if (i > 0) ctx.draft.edge(doc.chunks[i - 1], node, "R9", "observed");
    doc.chunks.push(node);
    prevBytes = upTo;
    prevEnd = at;
  });
  for (const { node, offset } of needs) ctx.draft.edge(chunkHolding(doc, offset) ?? doc.chunks[0], node, "R3", "observed");
}
