import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { buildGraph } from "./build-graph.js";
import { loadRecording } from "./load-recording.js";
import { validateGraph } from "./validate-graph.js";

export interface BuildResult {
  recording: string;
  output: string | null;
  ok: boolean;
  message: string;
  warnings: string[];
}

/**
 * Builds one graph per recording into outDir/<recording name>.json. A recording that cannot be
 * built is reported and the rest go on. Incomplete recordings are refused unless allowed: their
 * graphs lack the load event and would mislead an experiment.
 */
export function buildMany(
  dirs: string[],
  outDir: string,
  opts: { allowIncomplete: boolean },
  onDone: (r: BuildResult, done: number) => void = () => {},
): BuildResult[] {
  mkdirSync(outDir, { recursive: true });
  const results: BuildResult[] = [];
  for (const dir of dirs) {
    const r = buildOne(dir, outDir, opts.allowIncomplete);
    results.push(r);
    onDone(r, results.length);
  }
  return results;
}

function buildOne(dir: string, outDir: string, allowIncomplete: boolean): BuildResult {
  const name = basename(resolve(dir));
  try {
    const rec = loadRecording(dir);
    if (rec.manifest.status !== "complete" && !allowIncomplete) {
      return { recording: dir, output: null, ok: false, warnings: [], message: `${dir}: the recording is incomplete (${rec.manifest.reason}); pass --allow-incomplete to build from what was recorded` };
    }
    const graph = buildGraph(rec);
    const problems = validateGraph(JSON.parse(JSON.stringify(graph)), `${name}.json`);
    if (problems.length) return { recording: dir, output: null, ok: false, warnings: [], message: `${dir}: built graph is invalid (a pagepath bug):\n  ${problems.join("\n  ")}` };
    const output = join(outDir, `${name}.json`);
    writeFileSync(output, JSON.stringify(graph));
    const summary = `${graph.nodes.length} nodes, ${graph.edges.length} edges, critical path ${graph.criticalPath.totalMs.toFixed(1)} ms${graph.mode === "network-only" ? " (network-only: no trace)" : ""}`;
    return { recording: dir, output, ok: true, message: summary, warnings: graph.warnings };
  } catch (e) {
    return { recording: dir, output: null, ok: false, warnings: [], message: (e as Error).message };
  }
}
