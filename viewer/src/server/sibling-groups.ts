import type { Graph, GraphEdge, GraphNode } from "@pagepath/graph-builder";
import { MARKER_KINDS, MIN_GROUP, type NodeGroup } from "./node-groups.js";

/**
 * Siblings among the `shown` nodes to draw as one node: same frame, same parent, same kind (and
 * resource type), no children but markers, at least MIN_GROUP of them. A node's parent is the node
 * that started it: its first observed in-edge that is not a preload hint (the preload scanner's
 * download chunk varies along the document while the parse chunk holding the tags does not), else
 * its first in-edge.
 */
export function siblingGroups(graph: Graph, shown: Set<string>): NodeGroup[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const inEdges = new Map<string, GraphEdge[]>();
  const leaf = new Set(shown);
  for (const e of graph.edges) {
    if (!shown.has(e.from) || !shown.has(e.to)) continue;
    const list = inEdges.get(e.to);
    if (list) list.push(e);
    else inEdges.set(e.to, [e]);
    if (!MARKER_KINDS.has(byId.get(e.to)!.kind)) leaf.delete(e.from);
  }
  const runs = new Map<string, { parent: string; node: GraphNode; members: string[] }>();
  for (const n of graph.nodes) {
    if (!leaf.has(n.id) || MARKER_KINDS.has(n.kind) || n.id === graph.root) continue;
    const parent = parentOf(inEdges.get(n.id) ?? []);
    if (parent === null) continue;
    const key = JSON.stringify([n.frameId, parent, n.kind, n.resource?.resourceType ?? null, n.excluded === null]);
    const run = runs.get(key);
    if (run) run.members.push(n.id);
    else runs.set(key, { parent, node: n, members: [n.id] });
  }
  return [...runs.values()]
    .filter((r) => r.members.length >= MIN_GROUP)
    .map(({ parent, node, members }) => ({
      id: `siblings:${members[0]}`,
      label: `${members.length.toLocaleString("en-US")} ${what(node, members.length)} ${by(byId.get(parent)!)}`,
      members,
    }));
}

function parentOf(edges: GraphEdge[]): string | null {
  const started = edges.find((e) => e.how === "observed" && e.rule !== "preload") ?? edges.find((e) => e.rule !== "preload") ?? edges[0];
  return started?.from ?? null;
}

const KIND_NOUNS: Partial<Record<GraphNode["kind"], string>> = { parse: "parse chunks", download: "HTML chunks", script: "script runs", css: "style sheet evaluations", event: "event handlers", render: "renderings" };

/** "images", "scripts", "timers": CDP's resource type for fetches, else the node kind. */
export function what(n: GraphNode, count: number): string {
  const noun = n.kind === "resource" ? resourceNoun(n.resource?.resourceType ?? "Other") : (KIND_NOUNS[n.kind] ?? `${n.kind}s`);
  return count === 1 ? noun.replace(/s$/, "") : noun;
}

function resourceNoun(type: string): string {
  const nouns: Record<string, string> = { Image: "images", Script: "scripts", Stylesheet: "style sheets", Font: "fonts", XHR: "XHRs", Fetch: "fetches", Media: "media files" };
  return nouns[type] ?? `${type.toLowerCase()} fetches`;
}

/** Whom the reader knows as the requester: the parser of a document, a script by file name, else the node's label. */
function by(parent: GraphNode): string {
  if (parent.kind === "parse" || parent.kind === "download") return "requested by the parser";
  if (parent.kind === "script") return `from script ${tail(parent.script?.url ?? parent.label)}`;
  if (parent.kind === "resource") return `after ${tail(parent.resource?.url ?? parent.label)}`;
  return `from ${parent.kind} ${tail(parent.label)}`;
}

function tail(url: string): string {
  const last = url.split("\n")[0]!.replace(/[?#].*$/, "").split("/").filter(Boolean).pop() ?? url;
  return last.length > 30 ? last.slice(0, 29) + "…" : last;
}
