import type { ServerResponse } from "node:http";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Graph } from "@pagepath/graph-builder";
import { readArchive } from "@pagepath/profiler";
import type { FileCache } from "./file-cache.js";
import { loadGraph, type GraphFile } from "./graph-api.js";
import { insideRoot } from "./safe-path.js";
import { sendJson } from "./static-files.js";

/** One fetch's headers as the recording archived them (credentials redacted unless kept). */
export interface NodeHeaders {
  request: Record<string, string>;
  response: Record<string, string> | null;
}

export interface GraphHeaders {
  /** Null when the headers could be read; else why not, in words. */
  missing: string | null;
  /** Fetch node id to the headers of its last hop. */
  nodes: Record<string, NodeHeaders>;
}

/**
 * GET /api/headers?file=REL: each fetch node's request and response headers, from the recording the
 * graph was built from (its `source.recording`), as DevTools' Headers tab shows them. A graph holds
 * no headers; the recording is read only when it lies inside the served directory, which is all the
 * viewer serves.
 */
export async function headersApi(res: ServerResponse, root: string, graphFile: GraphFile, params: URLSearchParams, graphs: FileCache<Graph>): Promise<void> {
  const found = await loadGraph(res, graphFile, params, graphs);
  if (found) sendJson(res, graphHeaders(root, found.graph));
}

function graphHeaders(root: string, graph: Graph): GraphHeaders {
  const dir = resolve(root, graph.source.recording);
  if (!insideRoot(root, dir)) return { missing: `the recording ${graph.source.recording} is outside the served directory`, nodes: {} };
  if (!existsSync(dir)) return { missing: `the recording ${graph.source.recording} is not on this machine`, nodes: {} };
  let archive;
  try {
    archive = readArchive(dir);
  } catch (e) {
    return { missing: (e as Error).message, nodes: {} };
  }
  const byId = new Map(archive.map((e) => [e.id, e]));
  const nodes: Record<string, NodeHeaders> = {};
  for (const n of graph.nodes) {
    const entry = byId.get(n.resource?.archiveIds.at(-1) ?? "");
    if (entry) nodes[n.id] = { request: entry.requestHeaders, response: entry.response?.headers ?? null };
  }
  return { missing: null, nodes };
}
