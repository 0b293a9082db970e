import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Graph } from "@pagepath/graph-builder";
import { readManifest } from "@pagepath/profiler";
import type { SiteSummary } from "./api.js";
import { insideRoot, relativeUrlPath } from "./safe-path.js";

/** One corpus-index row for a graph read from `file` (under the served directory `root`). */
export function summariseGraph(g: Graph, file: string, root: string): SiteSummary {
  const fetches = g.nodes.filter((n) => n.kind === "resource" || (n.kind === "download" && n.chunk?.index === 0));
  const hosts = new Set(fetches.map((n) => hostOf(n.resource?.url)).filter((h) => h !== null));
  return {
    file: relativeUrlPath(root, file),
    name: basename(file, ".json"),
    url: g.source.url,
    status: g.source.status,
    mode: g.mode,
    nodes: g.nodes.length,
    edges: g.edges.length,
    resources: fetches.length,
    bytes: fetches.reduce((sum, n) => sum + (n.resource?.transferSize ?? 0), 0),
    domains: hosts.size,
    criticalPath: { nodes: g.criticalPath.nodes.length, totalMs: g.criticalPath.totalMs, breakdown: g.criticalPath.breakdown },
    recorded: g.recorded,
    recording: recordingOf(g, file, root),
  };
}

function hostOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
}

/**
 * The recording a graph names, or the corpus layout's sibling (graphs/x.json beside recordings/x),
 * shown only when it lies inside the served directory: the viewer never reads outside it.
 */
function recordingOf(g: Graph, file: string, root: string): SiteSummary["recording"] {
  const candidates = [resolve(dirname(file), g.source.recording), join(dirname(file), "..", "recordings", basename(file, ".json"))];
  for (const dir of candidates) {
    if (!insideRoot(root, dir) || !existsSync(join(dir, "manifest.json"))) continue;
    try {
      const m = readManifest(dir);
      return { dir: relativeUrlPath(root, dir), url: m.url, status: m.status, load: m.lifecycle.load, startedAt: m.startedAt };
    } catch {
      return null;
    }
  }
  return null;
}
