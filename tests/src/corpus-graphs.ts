import assert from "node:assert/strict";
import { join } from "node:path";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { runCli } from "./cli-run.js";

/** Builds these corpus sites into `data` as `pagepath corpus build --only` does, and reads their graphs. */
export async function buildCorpusGraphs(data: string, sites: string[]): Promise<Map<string, Graph>> {
  const r = await runCli(["corpus", "build", "--data", data, ...sites.flatMap((s) => ["--only", s]), "--quiet-ms", "2000"], 15 * 60_000);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return new Map(sites.map((s) => [s, readGraphFile(join(data, "graphs", `${s}.json`))]));
}
