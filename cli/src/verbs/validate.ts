import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { readGraphFile } from "@pagepath/graph-builder";
import { readRecording } from "@pagepath/profiler";
import { readExperiment, readPlanFile, readRunResultFile, runsFileLines, validateRunResult } from "@pagepath/results";
import { spawnSync } from "node:child_process";
import { basename } from "node:path";
import { checkedRecipe, RECIPE_FILE } from "@pagepath/corpus";
import { UsageError, type Verb } from "../verb.js";
import { NET_BINARY } from "./net.js";
import { shownPath } from "../shown-path.js";

export const validateVerb: Verb = {
  name: "validate",
  summary: "check recordings, graphs, run results, plans, runs files, topologies and site recipes against their formats; report what is wrong and where",
  usage: `
usage: pagepath validate <recording-dir | graph.json | run.json | NAME.plan.json | NAME.runs.jsonl | NAME.topology.json | recipe.json>...

A directory is read as a recording (manifest, event log, trace, archive, bodies). A file is known by
its name and its "kind": an experiment plan (NAME.plan.json), a runs file (*.runs.jsonl or
runs.jsonl: every line a run result, checked against its plan when NAME.plan.json is beside it; a
last line a crash left half-written is reported, not counted invalid), a topology (*topology.json,
read by the link emulator's own parser, traces included), a realistic site's recipe.json, a run result ("kind":
"pagepath-run"), else a graph (JSON Schema graph-builder/schema/graph.schema.json, plus references,
critical path and acyclicity). Reports, per item, "ok" or the file and place that is wrong (the
line of a runs file). Exit code 1 if any is invalid, 2 for a usage error.
`,
  paths: { positionals: true },
  options: {},
  async run(_values, positionals) {
    if (positionals.length === 0) throw new UsageError("expected one or more recordings or graph files");
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
  if (existsSync(path) && statSync(path).isDirectory()) {
    const r = readRecording(path);
    const note = r.manifest.status === "complete" ? "" : ` (incomplete: ${r.manifest.reason})`;
    return `recording, ${r.archive.length} requests, ${r.events.length} events${note}`;
  }
  if (path.endsWith(".plan.json")) {
    const plan = readPlanFile(path);
    return `experiment plan ${plan.name}, ${plan.sites.length} sites, ${plan.networks.length} networks`;
  }
  if (path.endsWith(".jsonl")) return describeRunsFile(path);
  if (path.endsWith("topology.json")) return describeTopology(path);
  if (basename(path) === RECIPE_FILE) {
    const r = checkedRecipe(parsedJson(path), path);
    return `realistic site recipe, ${Object.keys(r.packages).length} packages, ${Object.keys(r.hosts).length} hosts, entry ${r.entry}`;
  }
  if (kindOf(path) === "pagepath-run") {
    const r = readRunResultFile(path);
    return `run result, ${r.client}, ${r.status}${r.metrics.loadMs == null ? "" : `, load ${r.metrics.loadMs.toFixed(0)} ms`}`;
  }
  const g = readGraphFile(path);
  return `graph, ${g.nodes.length} nodes, ${g.edges.length} edges, ${g.mode}`;
}

/**
 * The "kind" a JSON file says it is, from its first 4 KB (pagepath's writers put it before the
 * bulk), or undefined; the reader it picks parses the file once and says what is wrong with it.
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
    return /"kind"\s*:\s*"([^"]+)"/.exec(head.subarray(0, n).toString("utf8"))?.[1];
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

/** A topology file, read by the link emulator's own parser (pagepath net check): one source for what is valid. */
function describeTopology(path: string): string {
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
