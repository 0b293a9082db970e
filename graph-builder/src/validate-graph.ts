/**
 * Checks a graph file against the format (docs/formats/graph.md): first its shape with the JSON
 * Schema, then what a schema cannot say: that ids are unique, references resolve, the critical path
 * follows edges and the graph has no cycle. Every problem names the file and a JSON pointer.
 */
import { GRAPH_SCHEMA_VERSION, type Graph } from "./graph.js";
import { capProblems, readJsonFile } from "./json-file.js";
import { schemaProblems } from "@pagepath/formats";

/** Problems with a parsed graph file, each "<file>: <place>: <what is wrong>"; empty when valid. */
export function validateGraph(value: unknown, file: string): string[] {
  const problems = versionProblem(value) ?? shapeProblems(value) ?? referenceProblems(value as Graph);
  return capProblems(problems.map((p) => `${file}: ${p}`), file);
}

/** Reads, parses and validates a graph file; throws an Error listing every problem. */
export function readGraphFile(path: string): Graph {
  const value = readJsonFile(path);
  const problems = validateGraph(value, path);
  if (problems.length > 0) throw new Error(`${path}: not a valid pagepath graph:\n${problems.join("\n")}`);
  return value as Graph;
}

// Another version's layout may differ throughout, so checking it against this schema would only bury
// the one thing that matters.
function versionProblem(value: unknown): string[] | undefined {
  if (typeof value !== "object" || value === null || !("schemaVersion" in value)) return undefined;
  const v = value.schemaVersion;
  if (v === GRAPH_SCHEMA_VERSION) return undefined;
  return [`/schemaVersion: ${JSON.stringify(v)} is not supported (this pagepath reads schemaVersion ${GRAPH_SCHEMA_VERSION})`];
}

// References are checked only on a well-shaped graph: on a misshapen one they would just echo the
// shape errors, and walking it would need a guard at every step.
function shapeProblems(value: unknown): string[] | undefined {
  return schemaProblems(value, "graph.schema.json", "the graph format");
}

function referenceProblems(g: Graph): string[] {
  const problems: string[] = [];
  const nodeAt = new Map<string, number>();
  g.nodes.forEach((n, i) => {
    const first = nodeAt.get(n.id);
    if (first === undefined) nodeAt.set(n.id, i);
    else problems.push(`/nodes/${i}/id: node id ${JSON.stringify(n.id)} is already used by /nodes/${first}`);
  });
  const frameIds = new Set<string>();
  g.frames.forEach((f, i) => {
    if (frameIds.has(f.id)) problems.push(`/frames/${i}/id: frame id ${JSON.stringify(f.id)} is used twice`);
    frameIds.add(f.id);
  });

  const needNode = (where: string, id: string | null) => {
    if (id !== null && !nodeAt.has(id)) problems.push(`${where}: there is no node ${JSON.stringify(id)}`);
  };
  const needFrame = (where: string, id: string | null) => {
    if (id !== null && !frameIds.has(id)) problems.push(`${where}: there is no frame ${JSON.stringify(id)}`);
  };
  needNode("/root", g.root);
  needFrame("/mainFrame", g.mainFrame);
  g.frames.forEach((f, i) => {
    needFrame(`/frames/${i}/parentId`, f.parentId);
    for (const k of ["firstDownload", "lastDownload", "dcl", "load"] as const) needNode(`/frames/${i}/${k}`, f[k]);
  });
  g.nodes.forEach((n, i) => {
    needFrame(`/nodes/${i}/frameId`, n.frameId);
    n.fcp?.firstImages.forEach((id, j) => needNode(`/nodes/${i}/fcp/firstImages/${j}`, id));
  });
  g.lcpCandidates?.forEach((c, i) => {
    c.sizes.forEach((s, j) => needNode(`/lcpCandidates/${i}/sizes/${j}/after`, s.after));
    c.waitsFor.forEach((id, j) => needNode(`/lcpCandidates/${i}/waitsFor/${j}`, id));
  });

  const edgeKeys = new Set<string>();
  g.edges.forEach((e, i) => {
    needNode(`/edges/${i}/from`, e.from);
    needNode(`/edges/${i}/to`, e.to);
    if (e.from === e.to) problems.push(`/edges/${i}: self-loop on node ${JSON.stringify(e.from)}`);
    edgeKeys.add(edgeKey(e.from, e.to));
  });

  const path = g.criticalPath.nodes;
  path.forEach((id, i) => {
    needNode(`/criticalPath/nodes/${i}`, id);
    const prev = path[i - 1];
    if (prev !== undefined && !edgeKeys.has(edgeKey(prev, id))) {
      problems.push(`/criticalPath/nodes/${i}: no edge joins ${JSON.stringify(prev)} to ${JSON.stringify(id)}`);
    }
  });

  problems.push(...phaseProblems(g));
  const cycle = findCycle(g, nodeAt);
  if (cycle) problems.push(`/edges: the graph has a cycle: ${[...cycle, cycle[0]].join(" -> ")}`);
  return problems;
}

/** A fetch's phases are laid end to end (graph.md): readers draw them side by side, so none may overlap. */
function phaseProblems(g: Graph): string[] {
  return g.nodes.flatMap((n, i) => {
    const p = n.resource?.phases;
    if (!p) return [];
    const problems: string[] = [];
    let previous: [string, number] | null = null;
    for (const name of ["queued", "dns", "connect", "ssl", "send", "wait", "download"] as const) {
      const s = p[name];
      if (!s) continue;
      const at = `/nodes/${i}/resource/phases/${name}`;
      if (s.end < s.start) problems.push(`${at}/end: ${s.end} is before its start ${s.start}`);
      if (previous && s.start < previous[1]) problems.push(`${at}/start: ${s.start} is before ${previous[0]} ended (${previous[1]})`);
      previous = [name, s.end];
    }
    return problems;
  });
}

function edgeKey(from: string, to: string): string {
  return `${from}\u0000${to}`;
}

/**
 * Kahn's topological sort over node indices; self-loops and dangling edges are reported on their
 * own, so they are left out here. Nodes the sort cannot reach each keep an unsorted parent, so
 * walking parents from one of them must come back to a node already walked: that loop is a cycle.
 */
function findCycle(g: Graph, nodeAt: Map<string, number>): string[] | undefined {
  const children = g.nodes.map((): number[] => []);
  const parents = g.nodes.map((): number[] => []);
  for (const e of g.edges) {
    const from = nodeAt.get(e.from);
    const to = nodeAt.get(e.to);
    if (from === undefined || to === undefined || from === to) continue;
    children[from]!.push(to);
    parents[to]!.push(from);
  }
  const waiting = parents.map((p) => p.length);
  const ready = waiting.flatMap((w, i) => (w === 0 ? [i] : []));
  for (let k = 0; k < ready.length; k++) {
    for (const c of children[ready[k]!]!) if (--waiting[c]! === 0) ready.push(c);
  }
  if (ready.length === g.nodes.length) return undefined;

  let at = waiting.findIndex((w) => w > 0);
  const walkedAt = new Map<number, number>();
  const walked: number[] = [];
  while (!walkedAt.has(at)) {
    walkedAt.set(at, walked.push(at) - 1);
    at = parents[at]!.find((p) => waiting[p]! > 0)!;
  }
  // The walk went against the edges; turn the loop around so it reads in edge direction.
  return walked.slice(walkedAt.get(at)).reverse().map((i) => g.nodes[i]!.id);
}
