import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { FILES } from "@pagepath/profiler";

/**
 * The graph to replay, validated, and the recording whose archive the servers will serve: given,
 * or the one the graph was built from, or the corpus layout's recordings/<name> beside graphs/.
 * Throws, naming the files, when the graph fails validation or a fetch it needs is not archived.
 */
export function checkReplayInputs(graphFile: string, recording?: string): { graph: Graph; recording: string } {
  const graph = readGraphFile(graphFile);
  const candidates = recording
    ? [recording]
    : [graph.source.recording, join(dirname(resolve(graphFile)), "..", "recordings", basename(graphFile, ".json"))];
  const found = candidates.find((dir) => existsSync(join(dir, FILES.archive)));
  if (!found) {
    const tried = candidates.map((c) => join(c, FILES.archive)).join(", ");
    throw new Error(`${graphFile}: cannot find the recording to serve (tried ${tried}); give it with --recording DIR`);
  }
  const archiveFile = join(found, FILES.archive);
  const archived = new Set((JSON.parse(readFileSync(archiveFile, "utf8")) as { id: string }[]).map((e) => e.id));
  const missing = graph.nodes
    .filter((n) => n.excluded === null && n.resource && n.resource.fromCache === null)
    .filter((n) => n.resource!.archiveIds.length === 0 || n.resource!.archiveIds.some((id) => !archived.has(id)))
    .map((n) => `${n.id} (${n.resource!.url})`);
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).join(", ") + (missing.length > 5 ? ` and ${missing.length - 5} more` : "");
    throw new Error(`${graphFile}: ${missing.length} fetch${missing.length === 1 ? " is" : "es are"} not in ${archiveFile}, so no server could answer them: ${shown}`);
  }
  return { graph, recording: found };
}
