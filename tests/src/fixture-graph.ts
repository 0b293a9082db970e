import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildGraph, loadRecording, type Graph } from "@pagepath/graph-builder";
import { recordPage, writeRecording } from "@pagepath/profiler";
import { optionsFor, startFixture } from "./fixture-profile.js";

/**
 * Profiles a fixture site in Chromium and builds its graph, as a replay test starts: the recording
 * goes to `work`/rec (what the replay servers serve) and the graph to `work`/`graphName`.
 */
export async function recordFixtureGraph(work: string, graphName = "graph.json", fixture = "multi-origin"): Promise<{ graphFile: string; graph: Graph }> {
  const site = await startFixture(fixture);
  const recording = join(work, "rec");
  try {
    writeRecording(recording, (await recordPage(site.config.entry, optionsFor(site))).recording);
  } finally {
    await site.close();
  }
  const graph = buildGraph(loadRecording(recording));
  const graphFile = join(work, graphName);
  writeFileSync(graphFile, JSON.stringify(graph));
  return { graphFile, graph };
}
