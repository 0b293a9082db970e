/**
 * Checks a run result (docs/formats/run-result.md): its shape with the JSON Schema, then what a schema
 * cannot say. Every problem names where it is: "<file>: <JSON pointer>: <what is wrong>".
 */
import { capProblems, readJsonFile } from "@pagepath/graph-builder";
import { requestPathProblems } from "./validate-request-paths.js";
import { modelClient, RUN_RESULT_SCHEMA_VERSION, TICKED_TRANSPORTS, transportRefusal, transportsFor, type PathBytes, type RequestRecord, type RunResult } from "./run-result.js";
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

/** A scheduler only where there is a choice of path, and none of the kernel's takes options. */
function schedulerProblems(c: RunResult["configuration"]): string[] {
  const s = c.scheduler;
  if (!s) return [];
  if (c.transport === "tcp" || c.transport === "quic") return [`/configuration/scheduler: must be null over ${c.transport}, which has one path (a multipath scheduler applies to mptcp and mpquic)`];
  const keys = Object.keys(s.options);
  if (c.transport === "mptcp" && keys.length > 0) return [`/configuration/scheduler/options: the kernel's MPTCP schedulers take no options, but ${keys.join(", ")} given`];
  return [];
}

function consistencyProblems(r: RunResult): string[] {
  const problems: string[] = [];
  if (r.status === "ok" && r.error !== null) problems.push(`/error: must be null when status is "ok"`);
  if (r.status === "failed" && r.error === null) problems.push(`/error: is null, but a failed run must say why it failed`);
  if (r.status === "incomplete" && r.error === null) problems.push(`/error: is null, but an incomplete run must say why it stalled and what it was waiting for`);
  const c = r.configuration;
  if (!transportsFor(c.protocol).includes(c.transport)) {
    problems.push(`/configuration/transport: ${c.protocol} cannot run over ${c.transport} (it needs ${transportsFor(c.protocol).join(" or ")})`);
  }
  const refusal = transportRefusal(r.client, c.transport);
  if (refusal) problems.push(`/configuration/transport: a ${r.client} run cannot be over ${c.transport}: ${refusal}`);
  if (c.http1 !== undefined && c.protocol !== "h1") problems.push(`/configuration/http1: is ${JSON.stringify(c.http1)}, but protocol is ${c.protocol} (it applies to h1 only)`);
  if (c.clockTickUs !== undefined && (r.client !== "simulated" || !TICKED_TRANSPORTS.includes(c.transport))) {
    problems.push(`/configuration/clockTickUs: only a simulated run over ${TICKED_TRANSPORTS.join(" or ")} has a clock tick; this run is ${r.client}, over ${c.transport}`);
  }
  problems.push(...schedulerProblems(c));
  if (typeof c.tailLossProbes === "boolean" && (c.transport === "quic" || c.transport === "mpquic")) {
    problems.push(`/configuration/tailLossProbes: must be null over ${c.transport} (QUIC's probe timeout cannot be switched off; the field is TCP's)`);
  }
  if (r.client === "chromium" && c.emulation) problems.push(`/configuration/emulation: must be null for a chromium run (it describes the emulated browser)`);
  if (modelClient(r.client) && c.emulation === null) problems.push(`/configuration/emulation: is null, but an ${r.client} run must say how the emulated browser was set up`);
  // An incomplete run keeps what it timed before the stall, so its timings may be partial but not absent.
  if (modelClient(r.client) && r.status !== "failed" && r.nodeTimings === null && r.detail !== "summary") {
    problems.push(`/nodeTimings: is null, but the emulated browser knows every node's timing and must report it on a run that is ${r.status}`);
  }
  if (r.detail === "summary" && (r.nodeTimings !== null || (r.requests ?? null) !== null)) problems.push(`/detail: a summary has null nodeTimings and requests`);
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
  r.requests?.forEach((q, i) => problems.push(...requestProblems(q, `/requests/${i}`, connectionIds)));
  r.requests?.forEach((q, i) => problems.push(...requestPathProblems(q.paths, pathCount, `/requests/${i}/paths`)));
  return problems;
}

function requestProblems(q: RequestRecord, at: string, connectionIds: Set<string>): string[] {
  const problems: string[] = [];
  if (q.endMs !== null && q.endMs < q.startMs) problems.push(`${at}/endMs: ${q.endMs} is before its startMs ${q.startMs}`);
  if (q.connection !== null && !connectionIds.has(q.connection)) problems.push(`${at}/connection: ${JSON.stringify(q.connection)} is not the id of any connection in /connections`);
  return [...problems, ...phaseProblems(q, at)];
}

/** Phases are laid end to end: a reader draws them side by side, so one may not start before an earlier one ended. */
function phaseProblems(q: RequestRecord, at: string): string[] {
  const problems: string[] = [];
  let previous: [string, number] | null = null;
  if (!q.phases) return problems;
  for (const name of ["queued", "dns", "connect", "ssl", "send", "wait", "download"] as const) {
    const span = q.phases[name];
    if (!span) continue;
    if (span.end < span.start) problems.push(`${at}/phases/${name}/end: ${span.end} is before its start ${span.start}`);
    if (previous && span.start < previous[1]) problems.push(`${at}/phases/${name}/start: ${span.start} is before ${previous[0]} ended (${previous[1]})`);
    previous = [name, span.end];
  }
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
