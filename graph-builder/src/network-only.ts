import type { BuildContext, DocumentState } from "./context.js";
import { urlTail } from "./context.js";
import type { GraphNode } from "./graph.js";
import { requestChains } from "@pagepath/profiler";
import { isFrameDocument, resourceInfo } from "./resources.js";
import { sameUrl } from "./url-key.js";

/**
 * The fallback when a recording has no trace: a graph from the network log alone. Each document is
 * one download chunk and one zero-time parse chunk; each resource hangs off what its initiator names
 * (the document's parse, or a zero-time evaluation of the script or style sheet that asked for it).
 * Structure survives; computation times are unknown and taken as zero.
 */
export function buildNetworkOnly(ctx: BuildContext): void {
  const d = ctx.draft;
  for (const frame of ctx.frames.values()) {
    for (const doc of frame.docs) {
      const e = doc.entries.at(-1)!;
      const start = ctx.ms(doc.entries[0]!.times.start);
      const end = e.times.end !== null ? ctx.ms(e.times.end) : start;
      const bytes = e.sizes.bodySize ?? 0;
      const chunk = d.add({
        kind: "download", frameId: frame.id, label: `${urlTail(doc.url)} bytes 0-${bytes}`, start, end, duration: Math.max(0, end - start),
        resource: resourceInfo(doc.entries, ctx.ms), chunk: { index: 0, offset: 0, bytes, last: true },
      });
      const parse = d.add({
        kind: "parse", frameId: frame.id, label: `parse ${urlTail(doc.url)}`, start: end, end, duration: 0,
        parse: { url: doc.url, startLine: null, endLine: null, index: 0, last: true },
      });
      d.edge(chunk, parse, "R3", "observed");
      doc.chunks.push(chunk);
      doc.parses.push(parse);
    }
  }
  const byRequest = requestChains(ctx.archive, (e) => !isFrameDocument(ctx, e));
  const evals = new Map<string, GraphNode>();
  const evaluation = (kind: "script" | "css", url: string, frameId: string, at: number): GraphNode => {
    let n = evals.get(url);
    if (!n) {
      n = kind === "css"
        ? d.add({ kind: "css", frameId, label: `css ${urlTail(url)}`, start: at, end: at, duration: 0, css: { url, segment: 0 } })
        : d.add({ kind: "script", frameId, label: `script ${urlTail(url)}`, start: at, end: at, duration: 0, script: { url, type: "sync", line: null, segment: 0 } });
      evals.set(url, n);
    }
    return n;
  };
  const resources: GraphNode[] = [];
  const guessed = new Set<GraphNode>();
  for (const [requestId, hops] of byRequest) {
    const first = hops[0]!;
    const final = hops.at(-1)!;
    const frameId = first.frameId && ctx.frames.has(first.frameId) ? first.frameId : ctx.mainFrameId;
    const start = ctx.ms(first.times.start);
    const end = final.times.end !== null ? ctx.ms(final.times.end) : start;
    const node = d.add({ kind: "resource", frameId, label: urlTail(final.url), start, end, duration: Math.max(0, end - start), resource: resourceInfo(hops, ctx.ms) });
    ctx.resourceByRequest.set(requestId, node);
    resources.push(node);
    // An import's guess at an initiator the file did not name is not an observation.
    if (first.initiator.inferred) guessed.add(node);
  }
  for (const node of resources) {
    const init = node.resource!;
    const frame = ctx.frames.get(node.frameId)!;
    const doc = frame.docs.find((x) => sameUrl(x.url, init.initiatorUrl));
    if (doc) {
      d.edge(doc.parses[0], node, "R1", guessed.has(node) ? "inferred" : "observed");
      continue;
    }
    const initiator = resources.find((r) => sameUrl(r.resource!.url, init.initiatorUrl) && r.start <= node.start);
    if (initiator && /css/i.test(initiator.resource!.mimeType + initiator.resource!.resourceType)) {
      const css = evaluation("css", initiator.resource!.url, initiator.frameId, initiator.end);
      d.edge(initiator, css, "R18", "inferred");
      d.edge(css, node, "R2", guessed.has(node) ? "inferred" : "observed");
    } else if (initiator) {
      const js = evaluation("script", initiator.resource!.url, initiator.frameId, initiator.end);
      d.edge(initiator, js, "R10", "inferred");
      d.edge(js, node, "R2", guessed.has(node) ? "inferred" : "observed");
    } else {
      d.edge(frame.docs[0]!.parses[0], node, "R1", "inferred");
    }
  }
  for (const frame of ctx.frames.values()) {
    const parent = frame.parentId ? ctx.frames.get(frame.parentId) : undefined;
    if (parent) d.edge(parent.docs[0]?.parses[0], frame.docs[0]?.chunks[0], "R5", "inferred");
    for (const doc of frame.docs) holdParsing(ctx, doc, resources, evaluation);
  }
  ctx.computations = d.nodes.filter((n) => n.kind !== "resource" && n.kind !== "download").sort((a, b) => a.start - b.start);
}

/**
 * The document's parser-blocking and deferred scripts, from its tags: without a trace nothing else
 * says that parsing, and so DOMContentLoaded, waits for them to arrive and run. A zero-time end of
 * parsing follows the first parse and every such script of the document, each run after its file
 * (deferred ones run after parsing but before DOMContentLoaded, which markers.ts adds by type).
 */
function holdParsing(
  ctx: BuildContext,
  doc: DocumentState,
  resources: GraphNode[],
  evaluation: (kind: "script", url: string, frameId: string, at: number) => GraphNode,
): void {
  const d = ctx.draft;
  const first = doc.parses[0];
  if (!first) return;
  let end: GraphNode | null = null;
  for (const tag of doc.scripts) {
    if (!tag.src || tag.async || tag.type === "async") continue;
    const file = resources.find((r) => r.frameId === doc.frameId && sameUrl(r.resource!.url, tag.src!));
    if (!file) continue;
    const run = evaluation("script", file.resource!.url, doc.frameId, file.end);
    run.script!.type = tag.type;
    d.edge(file, run, "R10", "inferred");
    if (tag.type === "defer" || tag.type === "module") continue;
    end ??= d.add({
      kind: "parse", frameId: doc.frameId, label: `parse ${urlTail(doc.url)} (end)`, start: first.end, end: first.end, duration: 0,
      parse: { url: doc.url, startLine: null, endLine: null, index: 1, last: true },
    });
    end.start = end.end = Math.max(end.end, run.end);
    d.edge(run, end, "R4", "inferred");
  }
  if (!end) return;
  first.parse!.last = false;
  d.edge(first, end, "R3", "inferred");
  doc.parses.push(end);
}
