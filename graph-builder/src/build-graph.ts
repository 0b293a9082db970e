import type { ArchiveEntry, CdpEvent, PageLayout, RecordingManifest } from "@pagepath/profiler";
import { TOOL_VERSION } from "@pagepath/profiler";
import { findActivities } from "./activities.js";
import { buildActivityNodes } from "./activity-nodes.js";
import type { BuildContext } from "./context.js";
import { breakCycles } from "./cycles.js";
import { buildDocuments, buildFrames } from "./documents.js";
import { Draft } from "./draft.js";
import { criticalPath } from "./critical-path.js";
import { GRAPH_SCHEMA_VERSION, type FrameInfo, type Graph } from "./graph.js";
import { linkActivities } from "./links.js";
import { buildMarkers } from "./markers.js";
import { buildNetworkOnly } from "./network-only.js";
import { addSourceImports, moduleUrls } from "./modules.js";
import { workerUrls } from "./workers.js";
import { normalise } from "./normalise.js";
import { buildPaintMarkers, recordedPaints } from "./paint-markers.js";
import { markViewportImages } from "./viewport-images.js";
import { buildLcpCandidates } from "./lcp-candidates.js";
import { assignPriorities } from "./priorities.js";
import { buildPreconnects } from "./preconnects.js";
import { schemefulSite } from "./site.js";
import { buildResources } from "./resources.js";
import { mainThreadTrace, type Mark } from "./trace-intervals.js";
import { linkStyleRecalc } from "./style-recalc.js";
import { buildRenderNodes } from "./render-tasks.js";

export interface RecordingInput {
  dir: string;
  manifest: RecordingManifest;
  events: CdpEvent[];
  trace: unknown[] | null;
  archive: ArchiveEntry[];
  body(sha256: string): Buffer | null;
  /** The main document's layout after the load (recording.md, layout.json); null or absent without one. */
  layout?: PageLayout | null;
}

/** A recording in, its PCP dependency graph out (seed 001 §3.5). Pure apart from reading bodies. */
export function buildGraph(rec: RecordingInput): Graph {
  const navStart = rec.manifest.lifecycle.navigationStartMonotonic;
  if (navStart === null) throw new Error(`${rec.dir}: the recording has no navigation start (the main document was never requested)`);
  const mainFrameId = rec.manifest.frameTree?.id ?? rec.archive.find((e) => e.resourceType === "Document")?.frameId;
  if (!mainFrameId) throw new Error(`${rec.dir}: the recording has no main frame`);
  const ctx: BuildContext = {
    manifest: rec.manifest,
    events: rec.events,
    archive: rec.archive,
    draft: new Draft(),
    ms: (s) => Math.round((s - navStart) * 1e6) / 1000,
    mainFrameId,
    frames: new Map(),
    segmentNode: new Map(),
    first: new Map(),
    last: new Map(),
    resourceByRequest: new Map(),
    callUrl: new Map(),
    modulesSeen: new Map(),
    moduleUrls: new Set(),
    moduleImports: new Map(),
    workerUrls: new Set(),
    markLoad: new Map(),
    tasks: [],
    loadDispatches: [],
    mainPaints: [],
    mainRenders: [],
    mainRestyles: [],
    animationFrames: [],
    computations: [],
  };
  buildFrames(ctx, rec.body);
  if (!ctx.frames.has(mainFrameId)) throw new Error(`${rec.dir}: the main document ${rec.manifest.url} has no response in the archive`);

  let mode: Graph["mode"] = "full";
  if (rec.trace) {
    const thread = mainThreadTrace(rec.trace, navStart);
    const { activities } = findActivities(thread);
    ctx.tasks = thread.tasks;
    ctx.moduleUrls = moduleUrls(rec.trace);
    ctx.workerUrls = workerUrls(rec.trace);
    ctx.loadDispatches = thread.loadDispatches;
    ctx.mainPaints = thread.paints.get(mainFrameId) ?? [];
    ctx.mainRenders = thread.renders.get(mainFrameId) ?? [];
    ctx.mainRestyles = thread.restyles.get(mainFrameId) ?? [];
    ctx.animationFrames = thread.animationFrames;
    const installs = new Map<number, Mark>();
    for (const m of thread.marks) {
      if (m.name === "TimerInstall") installs.set(Number(m.args.data?.timerId), m);
      if (m.name === "MarkLoad" && typeof m.args.data?.frame === "string") ctx.markLoad.set(m.args.data.frame, [...(ctx.markLoad.get(m.args.data.frame) ?? []), m.at]);
    }
    buildActivityNodes(ctx, activities, installs);
    buildDocuments(ctx, activities);
    buildResources(ctx);
    buildPreconnects(ctx);
    addSourceImports(ctx, rec.body);
    linkActivities(ctx, activities);
    linkStyleRecalc(ctx);
  } else {
    mode = "network-only";
    ctx.draft.warnings.push("the recording has no trace: built a network-only graph from initiators; computation times are zero");
    buildNetworkOnly(ctx);
  }
  buildMarkers(ctx);
  buildRenderNodes(ctx);
  breakCycles(ctx.draft);
  normalise(ctx);
  buildPaintMarkers(ctx, rec.body);
  markViewportImages(ctx, rec.layout);
  const lcpCandidates = mode === "full" && ctx.manifest.lifecycle.largestContentfulPaint !== null ? buildLcpCandidates(ctx, rec.layout, rec.body) : undefined;

  const main = ctx.frames.get(mainFrameId)!;
  const root = main.docs[0]?.chunks[0];
  if (!root) throw new Error(`${rec.dir}: the main document produced no download chunk`);
  const mainSite = frameSite(ctx, mainFrameId);
  const frames: FrameInfo[] = [...ctx.frames.values()].map((f) => ({
    id: f.id,
    parentId: f.parentId && ctx.frames.has(f.parentId) ? f.parentId : null,
    url: f.url,
    firstDownload: f.docs[0]?.chunks[0]?.id ?? null,
    lastDownload: f.docs.at(-1)?.chunks.at(-1)?.id ?? null,
    dcl: f.dcl!.id,
    load: f.load!.id,
    beforeLoad: (f.docs[0]?.chunks[0]?.start ?? Infinity) <= main.load!.start,
    crossSite: frameSite(ctx, f.id) !== mainSite,
  }));
  const graph: Graph = {
    schemaVersion: GRAPH_SCHEMA_VERSION,
    kind: "pagepath-graph",
    tool: { name: "pagepath", version: TOOL_VERSION },
    source: { recording: rec.dir, url: rec.manifest.url, status: rec.manifest.status, browser: rec.manifest.browser.product },
    mode,
    root: root.id,
    mainFrame: mainFrameId,
    frames,
    nodes: ctx.draft.nodes,
    edges: ctx.draft.edges,
    criticalPath: { nodes: [], totalMs: 0, breakdown: { network: 0, script: 0, parse: 0, css: 0, other: 0 } },
    recorded: { domContentLoaded: rec.manifest.lifecycle.domContentLoaded, load: rec.manifest.lifecycle.load, ...recordedPaints(ctx) },
    ...(lcpCandidates ? { lcpCandidates } : {}),
    warnings: ctx.draft.warnings,
  };
  if (rec.manifest.status !== "complete") graph.warnings.unshift(`the recording is incomplete: ${rec.manifest.reason}`);
  assignPriorities(graph);
  graph.criticalPath = criticalPath(graph);
  if (graph.criticalPath.nodes.at(-1) !== main.load!.id) graph.warnings.push("the load marker is not reachable from the root: the critical path ends elsewhere");
  return graph;
}

/**
 * The site a frame's requests are made for: its document's, or for a document with no site of its
 * own (about:blank, srcdoc, data:), which inherits its creator's origin, its parent's.
 */
function frameSite(ctx: BuildContext, frameId: string): string {
  for (let f = ctx.frames.get(frameId); f; f = f.parentId ? ctx.frames.get(f.parentId) : undefined) {
    if (/^https?:/i.test(f.url)) return schemefulSite(f.url);
  }
  return schemefulSite(ctx.frames.get(frameId)?.url ?? "");
}
