import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { readRunResultFile, type RunResult } from "@pagepath/results";
import type { FileCache } from "./file-cache.js";
import { hasBytes } from "./file-sha.js";
import { findJsonOfKind } from "./find-json-kind.js";
import { insideRoot } from "./safe-path.js";

/** A run result file under the served directory (what pagepath replay writes), or why it cannot be read. */
export type RunFile = { path: string; run: RunResult; graphPath: string } | { path: string; error: string };

/** Every run result file under root, read and checked; each is read again only when it changes. */
export async function readRunFiles(root: string, cache: FileCache<RunResult>): Promise<RunFile[]> {
  const out: RunFile[] = [];
  for (const path of findJsonOfKind(root, "pagepath-run")) {
    try {
      const run = await cache.get(path, "", async () => readRunResultFile(path));
      out.push({ path, run, graphPath: resolve(dirname(path), run.site.graph) });
    } catch (e) {
      out.push({ path, error: (e as Error).message });
    }
  }
  return out;
}

/**
 * Why the graph a run replayed cannot be opened with it, or null. Outside the served directory a
 * graph is read only with the bytes the run replayed, so that a run file cannot open other files.
 */
export function graphProblem(root: string, r: { run: RunResult; graphPath: string }): string | null {
  if (!existsSync(r.graphPath)) return "the graph it replayed is not there (moved or deleted?)";
  if (!insideRoot(root, r.graphPath) && !hasBytes(r.graphPath, r.run.site.graphSha256)) {
    return "outside the served directory, and not the bytes this run replayed (rebuilt since?)";
  }
  return null;
}
