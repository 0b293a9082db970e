import { statSync } from "node:fs";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import type { Layout } from "./api.js";
import type { FileCache } from "./file-cache.js";
import { findGraphFiles } from "./find-graphs.js";
import { layoutGraph } from "./layout.js";

/** The biggest graphs are the ones whose first opening waits seconds for dot; small ones lay out in milliseconds. */
export const PREWARM_GRAPHS = 12;

/**
 * Lays out the biggest graphs in `root` one after another in the background, with the options the
 * graph view opens with, so that opening them later finds the layout cached. Stops when `stopped()`.
 * Errors are left to the index and graph views, which report them per site.
 */
export async function prewarmLayouts(root: string, graphs: FileCache<Graph>, layouts: FileCache<Layout>, stopped: () => boolean): Promise<void> {
  const bySize = findGraphFiles(root)
    .map((path) => ({ path, bytes: safeSize(path) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, PREWARM_GRAPHS);
  const opts = { rankdir: "LR", includeExcluded: false, groups: { collapse: "auto", except: [] } } as const;
  for (const { path } of bySize) {
    if (stopped()) return;
    try {
      const graph = await graphs.get(path, "", async () => readGraphFile(path));
      if (stopped()) return;
      await layouts.get(path, JSON.stringify(opts), () => layoutGraph(graph, opts, path));
    } catch {
      // Reported when the site is opened or listed.
    }
  }
}

function safeSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
