import { basename } from "node:path";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { cellOf } from "@pagepath/results";
import type { RunFileRow, SiteIndex, SiteRow } from "./api.js";
import type { FileCache } from "./file-cache.js";
import { findGraphFiles } from "./find-graphs.js";
import { pathUse } from "./path-use.js";
import { graphProblem, type RunFile } from "./run-files.js";
import { relativeUrlPath } from "./safe-path.js";
import { summariseGraph } from "./site-summary.js";

/**
 * Every graph under root as a row, and every run result file; a file that cannot be read or is
 * invalid becomes an error row naming the problem, and the other rows are unaffected.
 */
export async function siteIndex(root: string, graphs: FileCache<Graph>, runFiles: RunFile[]): Promise<SiteIndex> {
  const sites: SiteRow[] = [];
  for (const file of findGraphFiles(root)) {
    try {
      const g = await graphs.get(file, "", async () => readGraphFile(file));
      sites.push({ ok: true, site: summariseGraph(g, file, root) });
    } catch (e) {
      sites.push({ ok: false, file: relativeUrlPath(root, file), name: basename(file, ".json"), error: (e as Error).message });
    }
  }
  return { dir: root, sites, runs: runFiles.map((f) => runRow(root, f)) };
}

function runRow(root: string, f: RunFile): RunFileRow {
  const file = relativeUrlPath(root, f.path);
  if (!("run" in f)) return { ok: false, file, error: f.error };
  const r = f.run;
  return {
    ok: true,
    run: { file, site: r.site.name, client: r.client, cell: cellOf(r), status: r.status, error: r.error, startedAt: r.startedAt, metrics: r.metrics, graph: relativeUrlPath(root, f.graphPath), graphProblem: graphProblem(root, f), pathUse: pathUse(r) },
  };
}
