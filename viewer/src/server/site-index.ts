import { basename } from "node:path";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import type { SiteIndex, SiteRow } from "./api.js";
import type { FileCache } from "./file-cache.js";
import { findGraphFiles } from "./find-graphs.js";
import { relativeUrlPath } from "./safe-path.js";
import { summariseGraph } from "./site-summary.js";

/**
 * Every graph under root as a row; a graph that cannot be read or is invalid becomes an error row
 * naming the problem, and the other rows are unaffected.
 */
export async function siteIndex(root: string, graphs: FileCache<Graph>): Promise<SiteIndex> {
  const sites: SiteRow[] = [];
  for (const file of findGraphFiles(root)) {
    try {
      const g = await graphs.get(file, "", async () => readGraphFile(file));
      sites.push({ ok: true, site: summariseGraph(g, file, root) });
    } catch (e) {
      sites.push({ ok: false, file: relativeUrlPath(root, file), name: basename(file, ".json"), error: (e as Error).message });
    }
  }
  return { dir: root, sites };
}
