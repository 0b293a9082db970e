import { requestChains, requestPhases, type ArchiveEntry } from "@pagepath/profiler";
import type { BuildContext } from "./context.js";
import { chunkHolding, docOf, latestBefore, latestFinished, parseChunkAt, urlTail } from "./context.js";
import { offsetAfterLine } from "./html-scripts.js";
import type { ConnectionInfo, GraphNode, ResourceInfo } from "./graph.js";
import { linkStaticImport, staticImporter } from "./modules.js";
import { ruleFor } from "./rules.js";
import { sameUrl, urlKey } from "./url-key.js";

/** HTML documents loaded into a known frame are download chunks, not resources. */
export function isFrameDocument(ctx: BuildContext, e: ArchiveEntry): boolean {
  return e.resourceType === "Document" && e.frameId !== null && ctx.frames.has(e.frameId);
}

/**
 * What the replay needs to fetch a resource, from its archive entries (redirect hops first); `ms`
 * is the graph's clock (monotonic seconds to ms since navigation start), for its phases.
 */
export function resourceInfo(hops: ArchiveEntry[], ms: (monotonicS: number) => number): ResourceInfo {
  const first = hops[0]!;
  const final = hops[hops.length - 1]!;
  const r = final.response;
  let origin = "";
  try {
    origin = new URL(final.url).origin;
  } catch {
    /* data: and the like have no origin */
  }
  return {
    url: final.url,
    origin,
    method: final.method,
    mimeType: r?.mimeType ?? "",
    resourceType: final.resourceType,
    status: r?.status ?? null,
    protocol: r?.protocol ?? null,
    connection: connectionOf(final),
    privacyMode: privacyModeOf(first),
    archiveIds: hops.map((h) => h.id),
    redirects: hops.slice(0, -1).map((h) => h.url),
    bodySize: final.sizes.bodySize ?? final.body?.size ?? 0,
    // Chromium reports -1 for loads it did not count (blob: worker scripts)
    transferSize: hops.reduce((s, h) => s + Math.max(0, h.sizes.encodedDataLength ?? 0), 0),
    serverDelayMs: final.serverDelay.ms,
    fromCache: final.fromCache,
    preloaded: false,
    lazyBound: false,
    initiatorType: String(first.initiator.type),
    initiatorUrl: first.initiator.url,
    priority: final.priority.final,
    initialPriority: first.priority.initial,
    networkStartMs: networkStart(final, ms),
    // The final hop's: earlier hops were other requests, and the span before it is their redirects.
    phases: requestPhases(final, ms),
  };
}

/** When the network service took the final hop up (ResourceTiming's requestTime); null without timing. */
function networkStart(e: ArchiveEntry, ms: (monotonicS: number) => number): number | null {
  const t = e.response?.timing;
  return t && t.requestTime > 0 ? Math.round(ms(t.requestTime) * 1000) / 1000 : null;
}

/**
 * Whether the request went without credentials to another origin: a CORS-mode fetch (fonts,
 * cross-origin module scripts, `fetch()`, `crossorigin` elements) carries no cookies there, and
 * Chromium keys its connections by that too (privacy mode), so such requests get connections of
 * their own beside the same origin's credentialed ones. Read from the `Sec-Fetch-*` headers
 * (Fetch Metadata), else the `Origin` header; a request that sent cookies had credentials.
 */
function privacyModeOf(e: ArchiveEntry): boolean {
  const header = (name: string) => Object.entries(e.requestHeaders ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
  if (header("cookie") !== undefined) return false;
  const mode = header("sec-fetch-mode");
  const site = header("sec-fetch-site");
  if (mode !== undefined) return mode === "cors" && site !== undefined && site !== "same-origin";
  const origin = header("origin");
  try {
    return origin !== undefined && origin !== "null" && new URL(e.url).origin !== origin;
  } catch {
    return false;
  }
}

/**
 * The connection a response came over. Chromium numbers connections from 1 and reports 0 where
 * none was used (data: URLs, the disk cache); a cache hit did not travel over any connection it
 * may still name.
 */
function connectionOf(e: ArchiveEntry): ConnectionInfo | null {
  const r = e.response;
  const id = Number(r?.connectionId ?? 0);
  if (!r || e.fromCache !== null || !Number.isSafeInteger(id) || id <= 0) return null;
  return { id, reused: r.connectionReused, remoteAddress: r.remoteAddress };
}

/**
 * One node per fetched resource (HTML documents are download chunks instead), attached to what
 * caused it. In order of trust: the activity piece whose trace contains the request (observed);
 * the parse chunk holding the initiator's line (observed; when the preload scanner asked before
 * the parser got there, also the download chunk then arrived, and the resource is "preloaded");
 * the style sheet that referenced it (observed, lazily bound to the parse chunk then running:
 * inferred); the latest computation of the right script (inferred).
 */
export function buildResources(ctx: BuildContext): void {
  const hopsByRequest = requestChains(ctx.archive, (e) => !isFrameDocument(ctx, e));
  const requestedIn = new Map<string, GraphNode>();
  for (const [seg, node] of ctx.segmentNode) for (const id of seg.requests) requestedIn.set(id, node);

  const firstFetch = new Map<string, GraphNode>();
  const linkPreloads = linkPreloadRequests(ctx);
  for (const [requestId, hops] of hopsByRequest) {
    const final = hops[hops.length - 1]!;
    const first = hops[0]!;
    const start = ctx.ms(first.times.start);
    const end = final.times.end !== null ? ctx.ms(final.times.end) : start;
    const frameId = first.frameId && ctx.frames.has(first.frameId) ? first.frameId : ctx.mainFrameId;
    const node = ctx.draft.add({
      kind: "resource", frameId, label: urlTail(final.url), start, end, duration: Math.max(0, end - start),
      resource: resourceInfo(hops, ctx.ms),
    });
    if (linkPreloads.has(requestId)) node.resource!.linkPreload = true;
    ctx.resourceByRequest.set(requestId, node);
    attach(ctx, node, first, requestedIn.get(requestId));
    const earlier = firstFetch.get(final.url);
    if (node.resource!.fromCache && earlier) ctx.draft.edge(earlier, node, "session-cache", "inferred");
    else if (!node.resource!.fromCache && !earlier) firstFetch.set(final.url, node);
  }
}

function attach(ctx: BuildContext, node: GraphNode, entry: ArchiveEntry, tracedParent: GraphNode | undefined): void {
  const d = ctx.draft;
  const lazyTag = lazyImageTag(ctx, node);
  if (lazyTag) {
    node.resource!.lazyBound = true;
    return d.edge(lazyTag, node, "lazy-binding", "inferred");
  }
  if (tracedParent) return d.edge(tracedParent, node, ruleFor(tracedParent, node), "observed");
  const init = entry.initiator;
  const initUrl = init.url;
  if ((init.type === "parser" || init.type === "preload") && initUrl) {
    const doc = docOf(ctx, node.frameId, initUrl);
    if (doc && sameUrl(doc.url, initUrl) && doc.parses.length) {
      const line = init.lineNumber ?? 0;
      const chunk = parseChunkAt(doc, line)!;
      d.edge(chunk, node, "R1", "observed");
      if (node.start >= chunk.start) return;
      // The preload scanner asked before the parser got there: the request waited only for the
      // document's bytes up to its tag (those that had arrived by then when the body is not
      // archived). Critical paths count on that edge for every preloaded resource, so there is no
      // flag without it.
      const arrived = doc.chunks.filter((c) => c.end <= node.start);
      const download = doc.body ? chunkHolding(doc, offsetAfterLine(doc.body, line)) : arrived[arrived.length - 1] ?? doc.chunks[0];
      if (!download) return;
      node.resource!.preloaded = true;
      return d.edge(download, node, "preload", "observed");
    }
    const sheets = ctx.computations.filter((c) => c.kind === "css" && sameUrl(c.css!.url, initUrl) && c.start <= node.start);
    if (sheets.length) {
      d.edge(sheets[sheets.length - 1], node, "R2", "observed");
      node.resource!.lazyBound = true;
      // The parser had made the element that uses it; the rendering that found it is a `render`
      // node (render-tasks.ts) when the trace has one.
      const parse = latestBefore(ctx, node.start, (c) => c.kind === "parse" && c.frameId === node.frameId);
      if (parse) d.edge(parse, node, "lazy-binding", "inferred");
      return;
    }
  }
  const importer = staticImporter(ctx, entry, node.start);
  if (importer) return linkStaticImport(ctx, importer, node);
  if (initUrl) {
    const byScript = latestBefore(ctx, node.start, (c) => c.kind !== "parse" && c.kind !== "css" && sameUrl(ctx.callUrl.get(c), initUrl));
    if (byScript) return d.edge(byScript, node, ruleFor(byScript, node), "inferred");
    if (ctx.workerUrls.has(urlKey(initUrl))) {
      const parent = workerParent(ctx, node, initUrl);
      if (parent) return d.edge(parent, node, "worker", "inferred");
    }
  }
  // Requests the browser makes on its own (favicon) or whose cause left no trace: the frame's
  // parser at that time stands in, marked inferred.
  const fallback =
    latestBefore(ctx, node.start, (c) => c.kind === "parse" && c.frameId === node.frameId) ?? ctx.frames.get(node.frameId)?.docs[0]?.parses[0];
  if (fallback) d.edge(fallback, node, ruleFor(fallback, node), "inferred");
  else d.warnings.push(`no parent found for ${entry.url} (initiator ${init.type}); it hangs off the root`);
}

/**
 * What a worker's request waits for (workers.ts): the last script the worker imported before it,
 * as importScripts() stops the worker until the script has arrived and run (Chromium types those
 * requests Script or Other, a fetch() Fetch), else the worker's own script. The worker runs before
 * the page's network events say its script finished (they wait for its first evaluation), so that
 * script need only have been requested first.
 */
function workerParent(ctx: BuildContext, node: GraphNode, workerUrl: string): GraphNode | undefined {
  const imported = latestFinished(ctx, node.start, (r) => r !== node && sameUrl(r.resource!.initiatorUrl, workerUrl) && ["Script", "Other"].includes(r.resource!.resourceType));
  if (imported) return imported;
  let script: GraphNode | undefined;
  for (const r of ctx.resourceByRequest.values()) {
    if (r !== node && r.start <= node.start && sameUrl(r.resource!.url, workerUrl) && (!script || r.start > script.start)) script = r;
  }
  return script;
}

/**
 * The parse chunk holding the `<img loading=lazy>` tag of this image, if it is one. Chromium fetches
 * a lazy image when layout finds its element near the viewport, from whatever task that was (the
 * trace nests the request in the browser's own work): it waits for the parser to have reached its
 * tag, and is bound to rendering as a CSS image is.
 */
function lazyImageTag(ctx: BuildContext, node: GraphNode): GraphNode | undefined {
  const doc = ctx.frames.get(node.frameId)?.docs.at(-1);
  const tag = doc?.lazyImages.find((l) => sameUrl(l.src, node.resource!.url));
  return tag && doc!.parses.find((p) => (p.parse!.startLine ?? 0) <= tag.line && tag.line <= (p.parse!.endLine ?? Infinity));
}

/** The requests a `<link rel=preload>` made (CDP's `isLinkPreload`), which the archive does not keep. */
function linkPreloadRequests(ctx: BuildContext): Set<string> {
  const ids = new Set<string>();
  for (const { method, params } of ctx.events as { method: string; params: Record<string, any> }[]) {
    if (method === "Network.requestWillBeSent" && params.request?.isLinkPreload === true) ids.add(params.requestId);
  }
  return ids;
}
