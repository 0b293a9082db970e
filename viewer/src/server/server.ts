import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync, statSync } from "node:fs";
import { RULES, type Graph } from "@pagepath/graph-builder";
import type { Experiment, RunResult } from "@pagepath/results";
import { analysisApi } from "./analysis-api.js";
import type { Layout } from "./api.js";
import { FileCache } from "./file-cache.js";
import { prewarmLayouts } from "./prewarm.js";
import { headersApi } from "./headers-api.js";
import { graphApi, layoutApi } from "./graph-api.js";
import { graphPathFor } from "./graph-path.js";
import { experimentApi, experimentsApi, type LoadedExperiment } from "./results-api.js";
import { readRunFiles } from "./run-files.js";
import { runsApi } from "./runs-api.js";
import { whatIfApi, whatIfSchedulersApi } from "./what-if-api.js";
import { decodeUrlPath, resolveUnder } from "./safe-path.js";
import { siteIndex } from "./site-index.js";
import { sendError, sendFile, sendJson } from "./static-files.js";

export const DEFAULT_PORT = 8737;
export const DEFAULT_HOST = "127.0.0.1";

const VIEWER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const STATIC_DIR = join(VIEWER_DIR, "static");
const UI_DIR = join(VIEWER_DIR, "dist", "ui");
const D3_FILE = join(dirname(fileURLToPath(import.meta.resolve("d3"))), "..", "dist", "d3.min.js");

export interface ViewerOptions {
  dir: string;
  host?: string;
  /** 0 picks any free port. */
  port?: number;
  /** Lay out the biggest graphs in the background at start (default true); benchmarks of cold opening turn it off. */
  prewarm?: boolean;
}

export interface RunningViewer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the viewer UI and, read-only, the graphs and files inside `dir`; outside it, only the
 * graphs that run results inside it replayed, with the bytes they replayed (graphPathFor).
 */
export async function startViewer(o: ViewerOptions): Promise<RunningViewer> {
  const root = resolve(o.dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`${o.dir}: not a directory`);
  const graphs = new FileCache<Graph>(64);
  const layouts = new FileCache<Layout>(32);
  const experiments = new FileCache<LoadedExperiment>(16);
  // Few: an experiment is kept with every run's requests, for as long as its analysis is being explored.
  const analysed = new FileCache<Experiment>(4);
  const runResults = new FileCache<RunResult>(64);
  const runFiles = () => readRunFiles(root, runResults);
  const graphFile = (rel: string) => graphPathFor(root, rel, runFiles);
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") return sendError(res, 405, "only GET");
    const [rawPath = "/", query = ""] = (req.url ?? "/").split("?", 2);
    const params = new URLSearchParams(query);
    if (rawPath === "/" || rawPath === "/index.html") return sendFile(res, join(STATIC_DIR, "index.html"));
    if (rawPath === "/vendor/d3.min.js") return sendFile(res, D3_FILE);
    if (rawPath === "/api/sites") return sendJson(res, await siteIndex(root, graphs, await runFiles()));
    if (rawPath === "/api/rules") return sendJson(res, RULES);
    if (rawPath === "/api/graph") return graphApi(res, graphFile, params, graphs);
    if (rawPath === "/api/layout") return layoutApi(res, graphFile, params, graphs, layouts);
    if (rawPath === "/api/headers") return headersApi(res, root, graphFile, params, graphs);
    if (rawPath === "/api/experiments") return experimentsApi(res, root, experiments);
    if (rawPath === "/api/experiment") return experimentApi(res, root, params, experiments);
    if (rawPath === "/api/analysis") return analysisApi(res, root, params, analysed);
    if (rawPath === "/api/runs") return runsApi(res, root, params, graphFile, runFiles);
    if (rawPath === "/api/what-if") return whatIfApi(res, params, graphFile);
    if (rawPath === "/api/what-if/schedulers") return whatIfSchedulersApi(res);
    for (const [prefix, base] of [["/static/", STATIC_DIR], ["/ui/", UI_DIR], ["/files/", root]] as const) {
      if (!rawPath.startsWith(prefix)) continue;
      const rel = decodeUrlPath(rawPath.slice(prefix.length));
      const path = rel === null ? null : resolveUnder(base, rel);
      return path === null ? sendError(res, 403, "outside the served directory") : sendFile(res, path);
    }
    sendError(res, 404, "not found");
  };
  const server = createServer((req, res) => {
    route(req, res).catch((e: Error) => {
      if (!res.headersSent) sendError(res, 500, e.message);
      else res.destroy();
    });
  });
  const host = o.host ?? DEFAULT_HOST;
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(o.port ?? DEFAULT_PORT, host, () => ok());
  });
  let closed = false;
  if (o.prewarm !== false) void prewarmLayouts(root, graphs, layouts, () => closed);
  const { address, port } = server.address() as AddressInfo;
  const urlHost = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${urlHost}:${port}/`,
    host: address,
    port,
    close: () =>
      new Promise((ok) => {
        closed = true;
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
