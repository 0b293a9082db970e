import type { Graph } from "@pagepath/graph-builder";
import type { Layout } from "../src/server/api.js";
import { fetchJson } from "./fetch-json.js";

/** One open graph with what the views derive from it. */
export interface SiteData {
  file: string;
  graph: Graph;
  byId: Map<string, Graph["nodes"][number]>;
  critical: Set<string>;
  rules: Record<string, string>;
}

let rules: Promise<Record<string, string>> | null = null;
const layouts = new Map<string, Promise<Layout>>();

export async function loadSite(file: string): Promise<SiteData> {
  rules ??= fetchJson<Record<string, string>>("/api/rules");
  const graph = await fetchJson<Graph>(`/api/graph?file=${encodeURIComponent(file)}`);
  return { file, graph, byId: new Map(graph.nodes.map((n) => [n.id, n])), critical: new Set(graph.criticalPath.nodes), rules: await rules };
}

export function loadLayout(file: string, rankdir: "LR" | "TB", all: boolean): Promise<Layout> {
  const key = JSON.stringify([file, rankdir, all]);
  let l = layouts.get(key);
  if (!l) {
    l = fetchJson<Layout>(`/api/layout?file=${encodeURIComponent(file)}&rankdir=${rankdir}${all ? "&all=1" : ""}`);
    l.catch(() => layouts.delete(key));
    layouts.set(key, l);
  }
  return l;
}
