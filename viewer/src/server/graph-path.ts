import { resolve } from "node:path";
import { graphProblem, type RunFile } from "./run-files.js";
import { resolveUnder } from "./safe-path.js";

/**
 * The graph file `rel` (relative to root) names for the graph APIs, or null when it may not be read:
 * a path under root, or one outside it that a run result under root replayed, while its bytes are
 * the ones replayed. pagepath replay writes runs/ beside the graphs, so `pagepath view runs/` must
 * reach them; nothing else outside root is read, and /files/ serves nothing outside it at all.
 */
export async function graphPathFor(root: string, rel: string, runFiles: () => Promise<RunFile[]>): Promise<string | null> {
  const inside = resolveUnder(root, rel);
  if (inside !== null || rel.includes("\0")) return inside;
  const path = resolve(root, rel);
  for (const r of await runFiles()) {
    if ("run" in r && r.graphPath === path && graphProblem(root, r) === null) return path;
  }
  return null;
}
