import type { Graph } from "@pagepath/graph-builder";
import type { GraphHeaders } from "../src/server/headers-api.js";
import type { GroupedLayout } from "../src/server/layout.js";
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
const layouts = new Map<string, Promise<GroupedLayout>>();

/** Which groups of like nodes (siblings, chains) to collapse: auto (all in big graphs), all or none, each but for those in `except`. */
export interface GroupChoice {
  collapse: "auto" | "all" | "none";
  except: Set<string>;
}

export async function loadSite(file: string): Promise<SiteData> {
  rules ??= fetchJson<Record<string, string>>("/api/rules");
  const graph = await fetchJson<Graph>(`/api/graph?file=${encodeURIComponent(file)}`);
  return { file, graph, byId: new Map(graph.nodes.map((n) => [n.id, n])), critical: new Set(graph.criticalPath.nodes), rules: await rules };
}

/** The graph view's first choice: views that only need the layout's colours share its layout so. */
const AS_OPENED: GroupChoice = { collapse: "auto", except: new Set() };

export function loadLayout(file: string, rankdir: "LR" | "TB", all: boolean, groups: GroupChoice = AS_OPENED): Promise<GroupedLayout> {
  const except = [...groups.except].sort().join(",");
  const key = JSON.stringify([file, rankdir, all, groups.collapse, except]);
  let l = layouts.get(key);
  if (!l) {
    l = fetchJson<GroupedLayout>(`/api/layout?file=${encodeURIComponent(file)}&rankdir=${rankdir}${all ? "&all=1" : ""}&groups=${groups.collapse}${except ? `&except=${encodeURIComponent(except)}` : ""}`);
    l.catch(() => layouts.delete(key));
    layouts.set(key, l);
  }
  return l;
}

const headers = new Map<string, Promise<GraphHeaders>>();

/** Each fetch's headers from the graph's recording (GET /api/headers), once per graph file. */
export function loadHeaders(file: string): Promise<GraphHeaders> {
  let h = headers.get(file);
  if (!h) {
    h = fetchJson<GraphHeaders>(`/api/headers?file=${encodeURIComponent(file)}`);
    h.catch(() => headers.delete(file));
    headers.set(file, h);
  }
  return h;
}
