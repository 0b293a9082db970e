import type { Graph, GraphNode } from "./graph.js";

/**
 * A graph's structure with the timing noise taken out, for comparing two builds of the same page
 * (golden tests, comparing runs): node kinds and names and the rule-labelled edges between them.
 * Download chunks of a document fold into one "doc" node (how bytes were chunked is the network's
 * doing); parse chunks fold into one per stretch between blocking scripts; pieces of one
 * computation fold together.
 * The favicon, which the browser fetches on its own, is left out. Edges keep their rule, not
 * whether it was observed. Paint markers keep the edges from style sheets, images and the first
 * paint, not those from parse chunks, scripts and web fonts (see below).
 */
export interface CanonicalGraph {
  nodes: string[];
  edges: string[];
}

export function canonicalGraph(g: Graph): CanonicalGraph {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const skip = (n: GraphNode) => n.resource?.url.endsWith("/favicon.ico") === true;
  const key = new Map<string, string>();
  const path = (url: string) => {
    try {
      const u = new URL(url);
      return `${u.host}${u.pathname}${u.search}`;
    } catch {
      return url;
    }
  };
  const frameDoc = new Map(g.frames.map((f) => [f.id, path(f.url)]));

  // Parse chunks are numbered by the blocking scripts before them: where else the parser yielded
  // or issued a request varies from load to load, where a script stopped it does not.
  const parsesByDoc = new Map<string, GraphNode[]>();
  for (const n of g.nodes) if (n.kind === "parse") parsesByDoc.set(`${n.frameId}|${n.parse!.url}`, [...(parsesByDoc.get(`${n.frameId}|${n.parse!.url}`) ?? []), n]);
  const afterScript = (n: GraphNode) => g.edges.some((e) => e.to === n.id && e.rule === "R4");
  for (const [, parses] of parsesByDoc) {
    parses.sort((a, b) => a.parse!.index - b.parse!.index);
    let k = 0;
    parses.forEach((p, i) => {
      if (i > 0 && afterScript(p)) k++;
      key.set(p.id, `parse:${path(p.parse!.url)}#${k}`);
    });
  }
  const seen = new Map<string, number>();
  for (const n of [...g.nodes].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id))) {
    // How often the frame rendered before load is timing.
    if (key.has(n.id) || skip(n) || n.kind === "render") continue;
    let k: string;
    switch (n.kind) {
      case "download": k = `doc:${path(n.resource!.url)}`; break;
      case "resource": k = `res:${path(n.resource!.url)}${n.resource!.fromCache ? " (cache)" : ""}`; break;
      case "script": k = `js:${n.script!.type}:${n.script!.type === "inline" ? `${frameDoc.get(n.frameId)}@${n.script!.line}` : n.script!.url ? path(n.script!.url) : "promise"}`; break;
      case "css": k = `css:${path(n.css!.url)}`; break;
      case "timer": k = `timer:${n.label.replace(/ \(part \d+\)$/, "")}`; break;
      case "event": k = `event:${n.event!.target}:${n.label.replace(/ \(part \d+\)$/, "")}`; break;
      default: k = `${n.kind}:${frameDoc.get(n.frameId)}`;
    }
    // Pieces of one computation share its key; separate runs of the same thing are numbered.
    const piece = (n.script?.segment ?? n.css?.segment ?? n.timer?.segment ?? n.event?.segment ?? 0) > 0;
    if (!piece) seen.set(k, (seen.get(k) ?? 0) + 1);
    const nth = seen.get(k) ?? 1;
    key.set(n.id, nth > 1 ? `${k} #${nth}` : k);
  }
  const nodes = new Set<string>();
  for (const n of g.nodes) if (key.has(n.id)) nodes.add(`${key.get(n.id)}${n.excluded ? ` [${n.excluded}]` : ""}`);
  const edges = new Set<string>();
  for (const e of g.edges) {
    const a = key.get(e.from);
    const b = key.get(e.to);
    if (!a || !b || a === b) continue;
    if (byId.get(e.from)!.kind === "download" && byId.get(e.to)!.kind === "parse") continue; // which bytes a chunk waited for is timing
    // Which parse chunk or script came before a paint is timing too: Chromium paints when a frame
    // is due and the parser has yielded, e.g. before or after a body script arrives.
    // So is whether a web font had arrived before a text LCP (the rule takes the fonts loaded by then),
    // and which timers and events ran in the frame before the paint's.
    const from = byId.get(e.from)!;
    const paint = e.rule === "paint-fcp" || e.rule === "paint-lcp" || e.rule.startsWith("font-display-");
    const timed = ["parse", "script", "timer", "event"].includes(from.kind) || (from.kind === "resource" && from.resource!.resourceType === "Font");
    if (paint && timed) continue;
    // Whether an edge was observed or inferred can depend on timing (a blocking script runs inside
    // the parser's task or in its own), so the structure compares rules only.
    edges.add(`${a} -> ${b} [${e.rule}]`);
  }
  return { nodes: [...nodes].sort(), edges: [...edges].sort() };
}
