import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildGraph, loadRecording, validateGraph } from "@pagepath/graph-builder";
import { readManifest, recordPage, writeRecording } from "@pagepath/profiler";
import { DEFAULT_PARAMS } from "../generator/params.js";
import { generateSiteModel } from "../generator/model.js";
import { writeGeneratedSite } from "../generator/write-site.js";
import { assembleRealisticSite } from "../realistic/assemble.js";
import { siteProfileOptions } from "../site-profile-options.js";
import { serveSite } from "../site-server.js";
import type { CorpusSite } from "./catalogue.js";

export interface CorpusBuildResult {
  site: CorpusSite;
  status: "built" | "skipped" | "failed";
  message: string;
}

export interface CorpusBuildOptions {
  force: boolean;
  quietMs: number;
  /** 2: each site profiled as `pagepath profile --passes 2` records it (default 1). */
  passes?: 1 | 2;
}

export type CorpusBuildEvent = { type: "start"; site: CorpusSite } | { type: "done"; result: CorpusBuildResult };

/**
 * Makes every catalogue site into a recording and a graph under dataDir: generate its files if it
 * is synthetic, fetch its packages and assemble it if it is realistic, serve it on 127.0.0.1 under
 * its host names, profile it in Chromium, build and check its graph. A site whose graph already exists is skipped unless `force`; a failing site is
 * reported and the rest go on.
 */
export async function buildCorpus(
  sites: CorpusSite[],
  dataDir: string,
  opts: CorpusBuildOptions,
  onEvent: (e: CorpusBuildEvent) => void = () => {},
): Promise<CorpusBuildResult[]> {
  mkdirSync(join(dataDir, "recordings"), { recursive: true });
  mkdirSync(join(dataDir, "graphs"), { recursive: true });
  const results: CorpusBuildResult[] = [];
  for (const site of sites) {
    onEvent({ type: "start", site });
    const result = await buildSite(site, dataDir, opts);
    results.push(result);
    onEvent({ type: "done", result });
  }
  return results;
}

async function buildSite(site: CorpusSite, dataDir: string, opts: CorpusBuildOptions): Promise<CorpusBuildResult> {
  const recDir = join(dataDir, "recordings", site.name);
  const graphFile = join(dataDir, "graphs", `${site.name}.json`);
  if (!opts.force && existsSync(graphFile) && existsSync(recDir) && readManifest(recDir).status === "complete") {
    return { site, status: "skipped", message: "already built" };
  }
  try {
    if (site.generated) writeGeneratedSite(generateSiteModel(DEFAULT_PARAMS, site.generated.seed, site.generated.index), site.siteDir);
    if (site.recipeDir) assembleRealisticSite(site.recipeDir, join(dataDir, "packages"), site.siteDir);
    const server = await serveSite(site.siteDir);
    let status: string;
    try {
      const { recording } = await recordPage(site.entry, { ...siteProfileOptions(server, { quietMs: opts.quietMs, capMs: 60_000 }), passes: opts.passes ?? 1 });
      writeRecording(recDir, recording);
      status = recording.manifest.status === "complete" ? "" : `incomplete: ${recording.manifest.reason}`;
    } finally {
      await server.close();
    }
    if (status) return { site, status: "failed", message: status };
    const graph = buildGraph(loadRecording(recDir));
    const problems = validateGraph(JSON.parse(JSON.stringify(graph)), graphFile);
    if (problems.length) return { site, status: "failed", message: problems.join("; ") };
    writeFileSync(graphFile, JSON.stringify(graph));
    const resources = graph.nodes.filter((n) => n.kind === "resource").length;
    return { site, status: "built", message: `${resources} resources, critical path ${graph.criticalPath.totalMs.toFixed(0)} ms` };
  } catch (e) {
    return { site, status: "failed", message: (e as Error).message };
  }
}
