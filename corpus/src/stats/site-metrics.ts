import type { CriticalPath, GraphEdge, GraphNode, NodeKind, ResourceInfo } from "@pagepath/graph-builder";
import type { ArchiveEntry, RecordingManifest } from "@pagepath/profiler";

/**
 * What one page load looks like in the terms of seed 001 §4.2 (Figs 4.1-4.8), from its recording
 * and, when there is one, its dependency graph.
 *
 * A *resource* is a response the browser fetched over the network: the last hop of a request (a
 * redirect hop carries no content), http(s), with a response, not failed, not served from a cache.
 * Documents count, the main one included: the thesis counts "resources a client must download" and
 * its Fig 4.1(b) has HTML among the MIME types, and the page size must include the HTML.
 */

export type MimeClass = "html" | "css" | "js" | "image" | "font" | "other";
export type InitiatorClass = "parser" | "script" | "css" | "other";
/** The graph activity whose completion led to the fetch (Fig 4.7); "none" for the root document. */
export type ParentKind = "parse" | "script" | "css" | "timer" | "event" | "none";
export type PathPart = keyof CriticalPath["breakdown"];

export const MIME_CLASSES: readonly MimeClass[] = ["html", "css", "js", "image", "font", "other"];
export const INITIATOR_CLASSES: readonly InitiatorClass[] = ["parser", "script", "css", "other"];
export const PARENT_KINDS: readonly ParentKind[] = ["parse", "script", "css", "timer", "event", "none"];
export const PATH_PARTS: readonly PathPart[] = ["network", "script", "parse", "css", "other"];

/** The fields of an archive entry that the metrics read, so a hand-made entry will do. */
export type EntryLike = Pick<ArchiveEntry, "id" | "url" | "resourceType" | "fromCache" | "redirectedTo" | "failure" | "sizes" | "body"> & {
  initiator: Pick<ArchiveEntry["initiator"], "type" | "url">;
  response: Pick<NonNullable<ArchiveEntry["response"]>, "mimeType"> | null;
};

export interface RecordingLike {
  manifest: Pick<RecordingManifest, "url" | "frameTree"> & { lifecycle: Pick<RecordingManifest["lifecycle"], "frames"> };
  archive: readonly EntryLike[];
}

/** The parts of a graph that the metrics read: a whole Graph will do, and so will a hand-made one. */
export interface GraphLike {
  nodes: readonly GraphNodeLike[];
  edges: readonly Pick<GraphEdge, "from" | "to" | "how">[];
  criticalPath: Pick<CriticalPath, "totalMs" | "breakdown">;
}

type GraphNodeLike = Pick<GraphNode, "id" | "kind"> & {
  resource?: Pick<ResourceInfo, "archiveIds">;
  chunk?: Pick<NonNullable<GraphNode["chunk"]>, "index">;
};

export interface ResourceMetrics {
  url: string;
  host: string;
  bytes: number;
  mime: MimeClass;
  initiator: InitiatorClass;
  /** null when no graph was given, or the graph has no node for the fetch. */
  parent: ParentKind | null;
}

export interface SiteMetrics {
  url: string;
  resources: ResourceMetrics[];
  resourceCount: number;
  pageBytes: number;
  /** null without resources, as are the shares below. */
  meanResourceBytes: number | null;
  /** Distinct host names. */
  domains: number;
  /** Frames seen at any time (the final frame tree and the lifecycle's frames, which keep detached ones), less the main frame. */
  iframes: number;
  /** The domain with the most bytes ("the largest sized domain", Fig 4.3(b)): its share of the resources and of the bytes. */
  largestDomain: { host: string; resourceShare: number; byteShare: number } | null;
  /** By host name only (the thesis also followed DNS CNAMEs), so a lower bound: Fig 4.5. */
  cdn: { domainShare: number; byteShare: number } | null;
  /** Share of the resources per initiator class. */
  initiatorShares: Record<InitiatorClass, number> | null;
  /** Share of the resources and of their bytes per parent kind; null without a graph. */
  parentShares: { count: Record<ParentKind, number>; bytes: Record<ParentKind, number> } | null;
  /** Share of the critical path's time per part; null without a graph or with an empty path. */
  criticalPath: { totalMs: number; shares: Record<PathPart, number> } | null;
}

export function siteMetrics(rec: RecordingLike, graph: GraphLike | null): SiteMetrics {
  const fetched = rec.archive.filter(isNetworkFetch);
  const parents = graph ? parentKinds(graph) : null;
  const cssUrls = new Set(fetched.filter((e) => mimeClass(e) === "css").map((e) => e.url));
  const resources = fetched.map((e): ResourceMetrics => ({
    url: e.url,
    host: new URL(e.url).hostname,
    bytes: e.sizes.bodySize ?? e.body?.size ?? 0,
    mime: mimeClass(e),
    initiator: initiatorClass(e, cssUrls),
    parent: parents?.get(e.id) ?? null,
  }));
  const pageBytes = sum(resources.map((r) => r.bytes));
  const any = resources.length > 0;
  return {
    url: rec.manifest.url,
    resources,
    resourceCount: resources.length,
    pageBytes,
    meanResourceBytes: any ? pageBytes / resources.length : null,
    domains: new Set(resources.map((r) => r.host)).size,
    iframes: Math.max(0, frameIds(rec.manifest).size - 1),
    largestDomain: any ? largestDomain(resources, pageBytes) : null,
    cdn: any ? cdnShares(resources, pageBytes) : null,
    initiatorShares: any ? shares(INITIATOR_CLASSES, resources, (r) => r.initiator, () => 1) : null,
    parentShares: graph && any ? parentShares(resources) : null,
    criticalPath: graph && graph.criticalPath.totalMs > 0 ? pathShares(graph.criticalPath) : null,
  };
}

export function isNetworkFetch(e: EntryLike): boolean {
  return /^https?:/.test(e.url) && e.redirectedTo === null && e.response !== null && e.failure === null && e.fromCache === null;
}

export function mimeClass(e: Pick<EntryLike, "response" | "resourceType">): MimeClass {
  const mime = (e.response?.mimeType ?? "").toLowerCase();
  if (/html/.test(mime)) return "html";
  if (mime === "text/css") return "css";
  if (/(java|ecma)script/.test(mime)) return "js";
  if (mime.startsWith("image/")) return "image";
  if (/^font\/|font-|fontobject/.test(mime)) return "font";
  // Servers often send text/plain or octet-stream for anything; the browser's own type knows better.
  const byType: Record<string, MimeClass> = { Document: "html", Stylesheet: "css", Script: "js", Image: "image", Font: "font" };
  return generic(mime) ? (byType[e.resourceType] ?? "other") : "other";
}

function generic(mime: string): boolean {
  return mime === "" || mime === "text/plain" || mime === "application/octet-stream";
}

/** CDP has no "css" initiator: a style sheet's fetches say "parser" and name the sheet's URL. */
function initiatorClass(e: EntryLike, cssUrls: Set<string>): InitiatorClass {
  if (e.initiator.type === "script") return "script";
  if (e.initiator.type !== "parser") return "other";
  return e.initiator.url !== null && cssUrls.has(e.initiator.url) ? "css" : "parser";
}

function frameIds(m: RecordingLike["manifest"]): Set<string> {
  const ids = new Set(m.lifecycle.frames.map((f) => f.frameId));
  const walk = (n: NonNullable<RecordingManifest["frameTree"]>): void => {
    ids.add(n.id);
    n.children.forEach(walk);
  };
  if (m.frameTree) walk(m.frameTree);
  return ids;
}

function largestDomain(resources: ResourceMetrics[], pageBytes: number): NonNullable<SiteMetrics["largestDomain"]> {
  const byHost = new Map<string, { count: number; bytes: number }>();
  for (const r of resources) {
    const h = byHost.get(r.host) ?? { count: 0, bytes: 0 };
    byHost.set(r.host, { count: h.count + 1, bytes: h.bytes + r.bytes });
  }
  // Ties by count then name, so the answer does not depend on request order.
  const [host, top] = [...byHost].sort(([ha, a], [hb, b]) => b.bytes - a.bytes || b.count - a.count || ha.localeCompare(hb))[0]!;
  return { host, resourceShare: top.count / resources.length, byteShare: pageBytes > 0 ? top.bytes / pageBytes : 0 };
}

/** The thesis's rule (§4.2.3): "cdn" in the name, or a known CDN: its examples, plus Fastly and Akamai's edge names. */
export function isCdnHost(host: string): boolean {
  return /cdn|akamai|cloudflare|cloudfront|azure|fastly|edgesuite|edgekey/.test(host);
}

function cdnShares(resources: ResourceMetrics[], pageBytes: number): NonNullable<SiteMetrics["cdn"]> {
  const hosts = new Set(resources.map((r) => r.host));
  const cdnBytes = sum(resources.filter((r) => isCdnHost(r.host)).map((r) => r.bytes));
  return {
    domainShare: [...hosts].filter(isCdnHost).length / hosts.size,
    byteShare: pageBytes > 0 ? cdnBytes / pageBytes : 0,
  };
}

const PARENT_OF: Partial<Record<NodeKind, ParentKind>> = { parse: "parse", script: "script", css: "css", timer: "timer", event: "event" };

/**
 * Archive id of each fetch's final hop -> the kind of the activity that led to it. A fetch is a
 * resource node or an HTML document's first download chunk. Where several activities point at it
 * (a CSS-referenced image: the sheet observed, the parse chunk that used it inferred), the observed
 * edge wins, as the builder trusts it more.
 */
function parentKinds(graph: GraphLike): Map<string, ParentKind> {
  const kindOf = new Map(graph.nodes.map((n) => [n.id, n.kind]));
  const incoming = new Map<string, { kind: ParentKind; observed: boolean }[]>();
  for (const e of graph.edges) {
    const kind = PARENT_OF[kindOf.get(e.from) ?? "load"];
    if (kind) incoming.set(e.to, [...(incoming.get(e.to) ?? []), { kind, observed: e.how === "observed" }]);
  }
  const out = new Map<string, ParentKind>();
  for (const n of graph.nodes.filter(isFetchNode)) {
    const from = incoming.get(n.id) ?? [];
    const kind = (from.find((p) => p.observed) ?? from[0])?.kind ?? "none";
    const last = n.resource!.archiveIds.at(-1);
    if (last !== undefined) out.set(last, kind);
  }
  return out;
}

function isFetchNode(n: GraphNodeLike): boolean {
  return n.resource !== undefined && (n.kind === "resource" || (n.kind === "download" && n.chunk?.index === 0));
}

function parentShares(resources: ResourceMetrics[]): NonNullable<SiteMetrics["parentShares"]> {
  const known = resources.filter((r) => r.parent !== null);
  return {
    count: shares(PARENT_KINDS, known, (r) => r.parent!, () => 1),
    bytes: shares(PARENT_KINDS, known, (r) => r.parent!, (r) => r.bytes),
  };
}

function pathShares(path: GraphLike["criticalPath"]): NonNullable<SiteMetrics["criticalPath"]> {
  const parts = Object.fromEntries(PATH_PARTS.map((p) => [p, path.breakdown[p] / path.totalMs])) as Record<PathPart, number>;
  return { totalMs: path.totalMs, shares: parts };
}

/** Each class's share of the total weight; all zero when there is no weight at all. */
function shares<K extends string, T>(classes: readonly K[], items: T[], classOf: (t: T) => K, weight: (t: T) => number): Record<K, number> {
  const total = sum(items.map(weight));
  const of = (k: K): number => (total > 0 ? sum(items.filter((t) => classOf(t) === k).map(weight)) / total : 0);
  return Object.fromEntries(classes.map((k) => [k, of(k)])) as Record<K, number>;
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
