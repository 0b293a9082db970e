import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { readRunResultFile, runToTrace, validateRunResult, type RunResult, type RunTrace } from "@pagepath/results";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const traceVerb: Verb = {
  name: "trace",
  summary: "export a run result in Chrome's trace-event format, for Perfetto or chrome://tracing",
  usage: `
usage: pagepath trace <run.json | name.runs.jsonl> [--graph GRAPH.json] [--out FILE] [--line N]

Writes a run result (docs/formats/run-result.md) as a Chrome trace: computations on a main thread,
each request on the thread of its connection, the graph's fetch nodes on threads of their own,
DOMContentLoaded, load and graph completion as instants, per-path byte totals as counters, and
where the requests recorded their bytes per path (requests[].paths), a counter per path of the
response bytes sent on it so far, stepping when a request's last byte on that path left the server.
Slices are named by the graph's node labels: the graph is the run's site.graph, relative to the run
file, unless --graph names one. Without it (missing, invalid, or not the graph the run replayed: its
SHA-256 differs) the trace goes on with node ids, and says so.
Default output: the run file with .json (or .jsonl) replaced by .trace.json (.line<N>.trace.json).
  --graph FILE     the graph the run replayed (used even if its SHA-256 differs, with a warning)
  -o, --out FILE   where to write ("-" for standard output)
  --line N         the line of a runs file to export, from 1 (default 1)
`,
  paths: { options: ["graph", "out"], positionals: true },
  options: {
    graph: { type: "string" },
    out: { type: "string", short: "o" },
    line: { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("expected exactly one run result file");
    const input = positionals[0]!;
    const jsonl = input.endsWith(".jsonl");
    if (values.line !== undefined && !jsonl) throw new UsageError(`--line applies to a runs file (.jsonl), not ${input}`);
    const line = jsonl ? lineOption(values.line) : undefined;
    let run: RunResult;
    let graph: Graph | undefined;
    try {
      run = line === undefined ? readRunResultFile(input) : readRunLine(input, line);
      graph = values.graph === undefined ? siteGraph(run, input) : explicitGraph(run, values.graph as string);
    } catch (e) {
      // Bad input is the caller's to fix, as with a usage error.
      process.stderr.write(`pagepath trace: ${(e as Error).message}\n`);
      return 2;
    }
    const trace = runToTrace(run, graph);
    const out = (values.out as string | undefined) ?? outputPath(input, line);
    if (out === "-") process.stdout.write(traceJson(trace));
    else {
      writeFileSync(out, traceJson(trace));
      process.stdout.write(`wrote ${shownPath(out)}: ${trace.traceEvents.length} trace events; open it in Perfetto or chrome://tracing\n`);
    }
    return 0;
  },
};

function lineOption(raw: unknown): number {
  if (raw === undefined) return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--line "${raw}": expected a line number from 1`);
  return n;
}

/** One line of an experiment's runs file, checked as a run result on its own. */
function readRunLine(path: string, line: number): RunResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(err.code === "ENOENT" ? `${path}: no such file` : `${path}: cannot be read (${err.message})`);
  }
  const lines = text.split("\n");
  const raw = lines[line - 1];
  const where = `${path}: line ${line}`;
  if (raw === undefined || raw.trim() === "") throw new Error(`${where}: there is no run there (the file has ${lines.filter((l) => l.trim() !== "").length} non-empty lines)`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new Error(`${where}: not valid JSON (${(e as Error).message})`);
  }
  const problems = validateRunResult(value, where);
  if (problems.length > 0) throw new Error(`${where}: not a valid pagepath run result:\n${problems.join("\n")}`);
  return value as RunResult;
}

/** The graph the run names, if it is there and is the one replayed; otherwise a warning and none. */
function siteGraph(run: RunResult, runPath: string): Graph | undefined {
  const path = resolve(dirname(runPath), run.site.graph);
  try {
    const graph = readGraphFile(path);
    if (sha256(path) === run.site.graphSha256) return graph;
    warn(`${path}: is not the graph this run replayed (its SHA-256 differs from site.graphSha256)`);
  } catch (e) {
    warn((e as Error).message);
  }
  return undefined;
}

function explicitGraph(run: RunResult, path: string): Graph {
  const graph = readGraphFile(path);
  if (sha256(path) !== run.site.graphSha256) process.stderr.write(`pagepath trace: warning: ${shownPath(path)}: is not the graph this run replayed (its SHA-256 differs from site.graphSha256); its labels may not fit\n`);
  return graph;
}

function warn(why: string): void {
  process.stderr.write(`pagepath trace: warning: ${why}; going on without the graph: slices are named by node id\n`);
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** One event per line: still one JSON document, but one a person can read and diff. */
function traceJson(trace: RunTrace): string {
  const events = trace.traceEvents.map((e) => JSON.stringify(e)).join(",\n");
  return `{"displayTimeUnit":${JSON.stringify(trace.displayTimeUnit)},"metadata":${JSON.stringify(trace.metadata)},"traceEvents":[\n${events}\n]}\n`;
}

function outputPath(input: string, line: number | undefined): string {
  const stem = input.replace(/\.jsonl?$/, "");
  return line === undefined ? `${stem}.trace.json` : `${stem}.line${line}.trace.json`;
}
