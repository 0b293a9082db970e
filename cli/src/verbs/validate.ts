import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { readGraphFile } from "@pagepath/graph-builder";
import { readRecording } from "@pagepath/profiler";
import { readAccuracyFile, readAccuracySamplesFile, readAnalysisFile, readExperiment, readPlanFile, readRunResultFile, runsFileLines, validateRunResult } from "@pagepath/results";
import { spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { checkedRecipe } from "@pagepath/corpus";
import { FORMATS, schemaProblems } from "@pagepath/formats";
import { UsageError, type Verb } from "../verb.js";
import { NET_BINARY } from "./net.js";
import { shownPath } from "../shown-path.js";

export const validateVerb: Verb = {
  name: "validate",
  summary: "check any file pagepath writes (recordings, graphs, run results, plans, runs files, accuracy results and samples, analyses, topologies, site recipes) against its format; report every problem and where",
  usage: `
usage: pagepath validate <recording-dir | FILE.json | FILE.jsonl>...

Each file is known by what it says it is, not by its name: its "kind" and "schemaVersion"
(pagepath-recording, -graph, -run, -experiment-plan, -accuracy, -accuracy-samples, -analysis); a file without a
pagepath kind is a topology when it has "paths", a realistic site's recipe when it has "entry" and
"packages". A directory is a recording (manifest, event log, trace, archive, bodies). A .jsonl file
is a runs file: every line a run result, checked against its plan when NAME.plan.json is beside
NAME.runs.jsonl; a last line a crash left half-written is reported, not counted invalid.

Every format is checked against its JSON Schema (formats/schema/, published in docs/formats), then
for what a schema cannot say (a graph's references and acyclicity, a plan's cells, a topology's
traces, read by the link emulator's own parser). Each problem is reported with the file, the JSON
pointer of the place that is wrong (or the line of a runs file) and what is wrong.

Exit code: 0 all valid, 1 any invalid, 2 usage error.
`,
  paths: { positionals: true },
  options: {},
  async run(_values, positionals) {
    if (positionals.length === 0) throw new UsageError("expected one or more files or recording folders");
    let bad = 0;
    for (const path of positionals) {
      try {
        process.stdout.write(`ok       ${shownPath(path)}: ${describe(path)}\n`);
      } catch (e) {
        bad++;
        process.stdout.write(`INVALID  ${(e as Error).message}\n`);
      }
    }
    return bad ? 1 : 0;
  },
};

function describe(path: string): string {
  if (existsSync(path) && statSync(path).isDirectory()) return describeRecording(path);
  if (path.endsWith(".jsonl")) return describeRunsFile(path);
  const kind = kindOf(path);
  switch (kind) {
    case "pagepath-recording":
      return describeRecording(dirname(path));
    case "pagepath-run": {
      const r = readRunResultFile(path);
      return `run result, ${r.client}, ${r.status}${r.metrics.loadMs == null ? "" : `, load ${r.metrics.loadMs.toFixed(0)} ms`}`;
    }
    case "pagepath-experiment-plan": {
      const plan = readPlanFile(path);
      return `experiment plan ${plan.name}, ${plan.sites.length} sites, ${plan.networks.length} networks`;
    }
    case "pagepath-accuracy": {
      const a = readAccuracyFile(path);
      return `accuracy result, ${a.conditions.length} conditions, ${a.configurations.length} configurations, ${a.runs} runs per cell`;
    }
    case "pagepath-accuracy-samples": {
      const a = readAccuracySamplesFile(path);
      return `accuracy samples, ${a.samples.length} runs, ${a.conditions.length} conditions, ${a.configurations.length} configurations${a.lantern ? `, ${a.lantern.cells.length} Lantern cells` : ""}`;
    }
    case "pagepath-analysis": {
      const a = readAnalysisFile(path);
      return `analysis of experiment ${a.experiment}, ${a.metric}, ${a.comparisons.length} comparisons`;
    }
    case "pagepath-graph":
    case undefined: {
      if (kind === undefined) {
        const value = parsedJson(path);
        if (isObject(value) && "paths" in value) return describeTopology(path, value);
        if (isObject(value) && "entry" in value && "packages" in value) return describeRecipe(path, value);
      }
      const g = readGraphFile(path);
      return `graph, ${g.nodes.length} nodes, ${g.edges.length} edges, ${g.mode}`;
    }
    default:
      throw new Error(`${path}: /kind: ${JSON.stringify(kind)} is not a format this pagepath knows (${FORMATS.flatMap((f) => f.kind ?? []).join(", ")})`);
  }
}

function describeRecording(dir: string): string {
  const r = readRecording(dir);
  const note = r.manifest.status === "complete" ? "" : ` (incomplete: ${r.manifest.reason})`;
  return `recording, ${r.archive.length} requests, ${r.events.length} events${note}`;
}

function describeRecipe(path: string, value: unknown): string {
  const r = checkedRecipe(value, path);
  return `realistic site recipe, ${Object.keys(r.packages).length} packages, ${Object.keys(r.hosts).length} hosts, entry ${r.entry}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The pagepath "kind" a JSON file says it is, from its first 4 KB (pagepath's writers put it before
 * the bulk, so a large graph is not parsed twice), or undefined; a site recipe's "kind" (dashboard,
 * slides, ...) is not one. The reader it picks parses the file once and says what is wrong with it.
 */
function kindOf(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined; // the graph reader names the file and what is wrong
  }
  try {
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    const kind = /"kind"\s*:\s*"([^"]+)"/.exec(head.subarray(0, n).toString("utf8"))?.[1];
    return kind?.startsWith("pagepath-") ? kind : undefined;
  } finally {
    closeSync(fd);
  }
}

function parsedJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`${path}: cannot read it as JSON: ${(e as Error).message}`);
  }
}

/**
 * A topology: its JSON Schema first, for every problem with its pointer; then the link emulator's
 * own parser (pagepath net check), which reads the traces and checks what a schema cannot.
 */
function describeTopology(path: string, value: unknown): string {
  const shape = schemaProblems(value, "topology.schema.json", "the topology format");
  if (shape) throw new Error(`${path}: not a valid topology:\n${shape.map((p) => `${path}: ${p}`).join("\n")}`);
  const r = spawnSync(NET_BINARY, ["check", path], { encoding: "utf8" });
  const said = (r.stdout || r.stderr || "").trim();
  if (r.status === 0) return said.replace(/^ok [^:]*: /, "");
  throw new Error(said.replace(/^invalid /, "").replace(/^pagepath net: /, "") || `${path}: pagepath net check failed (${r.error?.message ?? `exit ${r.status}`})`);
}

/** An experiment's runs file against its plan beside it; any other runs file (accuracy's) line by line. */
function describeRunsFile(path: string): string {
  const plan = path.endsWith(".runs.jsonl") ? path.slice(0, -".runs.jsonl".length) + ".plan.json" : "";
  if (plan && existsSync(plan)) {
    const e = readExperiment(plan, { light: true });
    return `runs file of experiment ${e.plan.name}, ${e.runs.length} runs${e.warnings.length ? `; ${e.warnings.join("; ")}` : ""}`;
  }
  const { lines, tornLine } = runsFileLines(readFileSync(path, "utf8"));
  const problems: string[] = [];
  for (const { n, text } of lines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      problems.push(`${path}: line ${n}: not JSON (${(err as Error).message})`);
      continue;
    }
    problems.push(...validateRunResult(value, `${path}: line ${n}`));
  }
  if (problems.length > 0) throw new Error(`${path}: not a valid runs file:\n${problems.slice(0, 20).join("\n")}${problems.length > 20 ? `\n(and ${problems.length - 20} more)` : ""}`);
  const torn = tornLine !== null ? `; line ${tornLine} is incomplete (no newline: a write a crash cut off), not counted` : "";
  return `runs file, ${lines.length} runs${torn}`;
}
