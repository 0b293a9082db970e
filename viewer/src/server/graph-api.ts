import type { ServerResponse } from "node:http";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import type { Layout } from "./api.js";
import type { FileCache } from "./file-cache.js";
import { layoutGraph } from "./layout.js";
import { sendError, sendJson } from "./static-files.js";

/** Where a graph named relative to the served directory may be read from (graphPathFor), or null. */
export type GraphFile = (rel: string) => Promise<string | null>;

/** GET /api/graph?file=REL: the graph, validated. */
export async function graphApi(res: ServerResponse, graphFile: GraphFile, params: URLSearchParams, graphs: FileCache<Graph>): Promise<void> {
  const found = await loadGraph(res, graphFile, params, graphs);
  if (found) sendJson(res, found.graph);
}

/**
 * GET /api/layout?file=REL&rankdir=LR|TB&all=1&groups=auto|all|none&except=ID,ID: dot's layout of the
 * graph (cached per file version and options), with groups of like nodes (siblings, chains) collapsed:
 * all, none, or all in big graphs (auto), each but for the groups in `except`.
 */
export async function layoutApi(res: ServerResponse, graphFile: GraphFile, params: URLSearchParams, graphs: FileCache<Graph>, layouts: FileCache<Layout>): Promise<void> {
  const rankdir = params.get("rankdir") ?? "LR";
  if (rankdir !== "LR" && rankdir !== "TB") return sendError(res, 400, `rankdir "${rankdir}": expected LR or TB`);
  const includeExcluded = params.get("all") === "1";
  const found = await loadGraph(res, graphFile, params, graphs);
  if (!found) return;
  const collapse = params.get("groups") ?? "none";
  if (collapse !== "auto" && collapse !== "all" && collapse !== "none") return sendError(res, 400, `groups "${collapse}": expected auto, all or none`);
  const except = (params.get("except") ?? "").split(",").filter(Boolean).sort();
  const opts = { rankdir, includeExcluded, groups: { collapse, except } } as const;
  sendJson(res, await layouts.get(found.path, JSON.stringify(opts), () => layoutGraph(found.graph, opts, found.path)));
}

export async function loadGraph(res: ServerResponse, graphFile: GraphFile, params: URLSearchParams, graphs: FileCache<Graph>): Promise<{ path: string; graph: Graph } | null> {
  const file = params.get("file");
  if (!file) {
    sendError(res, 400, "missing ?file=<graph path relative to the served directory>");
    return null;
  }
  const path = await graphFile(file);
  if (path === null) {
    sendError(res, 403, `${file}: outside the served directory`);
    return null;
  }
  try {
    return { path, graph: await graphs.get(path, "", async () => readGraphFile(path)) };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    sendError(res, err.code === "ENOENT" ? 404 : 422, err.code === "ENOENT" ? `${file}: no such file` : err.message);
    return null;
  }
}
