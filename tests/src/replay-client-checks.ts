import assert from "node:assert/strict";
import type { Graph, GraphNode } from "@pagepath/graph-builder";
import type { RunResult } from "@pagepath/results";

const emulated = (g: Graph) => g.nodes.filter((n) => n.excluded === null);

/** Rules whose child waits for the parent only if the parent had started (graph.md). */
const RACED = new Set(["completion-load-raced", "render-raced"]);

/** Fetches an emulated load needs: network resources and each document's first chunk. */
export function graphFetches(g: Graph): GraphNode[] {
  return emulated(g).filter((n) => (n.kind === "resource" && n.resource!.fromCache === null) || (n.kind === "download" && n.chunk!.index === 0));
}

/** Every fetch of the graph was made (a session-cache hit shares its URL with one) and answered as recorded. */
export function assertEveryResourceFetched(g: Graph, run: RunResult): void {
  const requests = run.requests ?? [];
  const byUrl = new Map(requests.map((r) => [r.url, r]));
  for (const n of graphFetches(g)) {
    const r = byUrl.get(n.resource!.redirects[0] ?? n.resource!.url) ?? byUrl.get(n.resource!.url);
    assert.ok(r, `${run.client}: ${n.id} ${n.resource!.url} was never requested`);
    if (n.resource!.redirects.length === 0) assert.equal(r.status, n.resource!.status, `${run.client}: ${r.url} answered ${r.status}, recorded ${n.resource!.status}`);
  }
}

/**
 * The emulated browser ran every emulated node and started none before its parents ended. A
 * preloaded resource waits for either its parse chunk or the download chunk the preloader scanned.
 */
export function assertDependenciesRespected(g: Graph, run: RunResult): void {
  const timing = new Map((run.nodeTimings ?? []).map((t) => [t.nodeId, t]));
  for (const n of emulated(g)) assert.ok(timing.has(n.id), `${n.id} (${n.kind} ${n.label}) never ran`);
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const either = new Map<string, number[]>();
  const EPS = 0.01;
  for (const e of g.edges) {
    const from = timing.get(e.from);
    const to = timing.get(e.to);
    if (!from || !to) continue;
    if (byId.get(e.to)!.resource?.preloaded && (e.rule === "R1" || e.rule === "preload")) {
      either.set(e.to, [...(either.get(e.to) ?? []), from.end]);
      continue;
    }
    // A raced parent (graph.md: completion-load-raced, render-raced) is waited for only if it had
    // started: else the child may go first, and the parent runs after it.
    const raced = RACED.has(e.rule) && from.start >= to.start - EPS;
    assert.ok(raced || to.start >= from.end - EPS, `${e.to} started at ${to.start} before its parent ${e.from} (${e.rule}) ended at ${from.end}`);
  }
  for (const [id, ends] of either) {
    assert.ok(timing.get(id)!.start >= Math.min(...ends) - EPS, `preloaded ${id} started before both its parse chunk and its download chunk`);
  }
  const m = run.metrics;
  assert.ok(m.domContentLoadedMs !== null && m.loadMs !== null && m.graphCompleteMs !== null, JSON.stringify(m));
  assert.ok(m.domContentLoadedMs <= m.loadMs && m.loadMs <= m.graphCompleteMs, JSON.stringify(m));
}

/** Chromium's fetches that the graph puts before the load event finished before it. */
export function assertChromiumLoadAfterItsFetches(g: Graph, run: RunResult): void {
  const load = run.metrics.loadMs;
  assert.ok(load !== null, `Chromium never fired load: ${run.error}`);
  const beforeLoad = new Set(g.edges.filter((e) => e.rule === "completion-load").map((e) => e.from));
  for (const r of run.requests ?? []) {
    const node = g.nodes.find((n) => n.resource?.url === r.url && beforeLoad.has(n.id));
    if (!node || r.endMs === null) continue;
    assert.ok(r.endMs <= load + 1, `${r.url} ended at ${r.endMs} ms, after load at ${load} ms`);
  }
}
