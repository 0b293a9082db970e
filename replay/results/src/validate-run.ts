/**
 * Checks a run result (docs/formats/run-result.md): its shape with the JSON Schema, then what a schema
 * cannot say. Every problem names where it is: "<file>: <JSON pointer>: <what is wrong>".
 */
import { capProblems, readJsonFile } from "@pagepath/graph-builder";
import { RUN_RESULT_SCHEMA_VERSION, transportsFor, type PathBytes, type RunResult } from "./run-result.js";
import { shapeProblems, versionProblem } from "./schema-check.js";

/** Problems with a parsed run result, each "<where>: <pointer>: <what is wrong>"; empty when valid. */
export function validateRunResult(value: unknown, where: string): string[] {
  const problems = versionProblem(value, RUN_RESULT_SCHEMA_VERSION) ?? shapeProblems(value, "run-result") ?? consistencyProblems(value as RunResult);
  return capProblems(problems.map((p) => `${where}: ${p}`), where);
}

/** Reads, parses and validates a run result file; throws an Error listing every problem. */
export function readRunResultFile(path: string): RunResult {
  const value = readJsonFile(path);
  const problems = validateRunResult(value, path);
  if (problems.length > 0) throw new Error(`${path}: not a valid pagepath run result:\n${problems.join("\n")}`);
  return value as RunResult;
}

function consistencyProblems(r: RunResult): string[] {
  const problems: string[] = [];
  if (r.status === "ok" && r.error !== null) problems.push(`/error: must be null when status is "ok"`);
  if (r.status === "failed" && r.error === null) problems.push(`/error: is null, but a failed run must say why it failed`);
  const c = r.configuration;
  if (!transportsFor(c.protocol).includes(c.transport)) {
    problems.push(`/configuration/transport: ${c.protocol} cannot run over ${c.transport} (it needs ${transportsFor(c.protocol).join(" or ")})`);
  }
  if (r.client === "emulated" && r.status === "ok" && r.nodeTimings === null) {
    problems.push(`/nodeTimings: is null, but the emulated browser knows every node's timing and must report it on a run that is ok`);
  }
  const seen = new Map<string, number>();
  r.nodeTimings?.forEach((t, i) => {
    if (t.end < t.start) problems.push(`/nodeTimings/${i}/end: ${t.end} is before its start ${t.start}`);
    const first = seen.get(t.nodeId);
    if (first !== undefined) problems.push(`/nodeTimings/${i}/nodeId: ${JSON.stringify(t.nodeId)} is already timed at /nodeTimings/${first}`);
    else seen.set(t.nodeId, i);
  });
  const pathCount = c.network.paths.length;
  if (r.paths.length !== pathCount) problems.push(`/paths: has ${r.paths.length} entries, but the network has ${pathCount} paths`);
  r.paths.forEach((p, i) => {
    if (p.path !== i) problems.push(`/paths/${i}/path: must be ${i} (entries are in path order), not ${p.path}`);
  });
  const connectionIds = new Set<string>();
  r.connections.forEach((k, i) => {
    if (connectionIds.has(k.id)) problems.push(`/connections/${i}/id: ${JSON.stringify(k.id)} is used by an earlier connection`);
    connectionIds.add(k.id);
    if (k.closedMs !== null && k.closedMs < k.openedMs) problems.push(`/connections/${i}/closedMs: ${k.closedMs} is before openedMs ${k.openedMs}`);
    problems.push(...pathIndexProblems(k.paths, pathCount, `/connections/${i}/paths`));
  });
  return problems;
}

function pathIndexProblems(paths: PathBytes[], pathCount: number, at: string): string[] {
  const problems: string[] = [];
  const used = new Set<number>();
  paths.forEach((p, j) => {
    if (p.path >= pathCount) problems.push(`${at}/${j}/path: there is no path ${p.path} (the network has ${pathCount})`);
    if (used.has(p.path)) problems.push(`${at}/${j}/path: path ${p.path} is listed twice`);
    used.add(p.path);
  });
  return problems;
}
