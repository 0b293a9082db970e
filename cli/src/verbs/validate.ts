import { existsSync, readFileSync, statSync } from "node:fs";
import { readGraphFile } from "@pagepath/graph-builder";
import { readRecording } from "@pagepath/profiler";
import { readExperiment, readPlanFile, readRunResultFile, validateRunResult } from "@pagepath/results";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const validateVerb: Verb = {
  name: "validate",
  summary: "check recordings, graphs, run results, plans and runs files against their formats; report what is wrong and where",
  usage: `
usage: pagepath validate <recording-dir | graph.json | run.json | NAME.plan.json | NAME.runs.jsonl>...

A directory is read as a recording (manifest, event log, trace, archive, bodies). A file is known by
its name and its "kind": an experiment plan (NAME.plan.json), a runs file (*.runs.jsonl or
runs.jsonl: every line a run result, checked against its plan when NAME.plan.json is beside it; a
last line a crash left half-written is reported, not counted invalid), a run result ("kind":
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
  if (kindOf(path) === "pagepath-run") {
    const r = readRunResultFile(path);
    return `run result, ${r.client}, ${r.status}${r.metrics.loadMs == null ? "" : `, load ${r.metrics.loadMs.toFixed(0)} ms`}`;
  }
  const g = readGraphFile(path);
  return `graph, ${g.nodes.length} nodes, ${g.edges.length} edges, ${g.mode}`;
}

/** The "kind" a JSON file says it is, or undefined (graphs of the first version have none). */
function kindOf(path: string): string | undefined {
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as { kind?: unknown };
    return typeof v.kind === "string" ? v.kind : undefined;
  } catch {
    return undefined; // the graph reader says what is wrong with the file
  }
}

/** An experiment's runs file against its plan beside it; any other runs file (accuracy's) line by line. */
function describeRunsFile(path: string): string {
  const plan = path.endsWith(".runs.jsonl") ? path.slice(0, -".runs.jsonl".length) + ".plan.json" : "";
  if (plan && existsSync(plan)) {
    const e = readExperiment(plan, { light: true });
    return `runs file of experiment ${e.plan.name}, ${e.runs.length} runs${e.warnings.length ? `; ${e.warnings.join("; ")}` : ""}`;
  }
  const lines = readFileSync(path, "utf8").split("\n");
  const tail = lines.pop()!;
  const problems: string[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problems.push(`${path}: line ${i + 1}: not JSON (${(err as Error).message})`);
      return;
    }
    problems.push(...validateRunResult(value, `${path}: line ${i + 1}`));
  });
  if (problems.length > 0) throw new Error(`${path}: not a valid runs file:\n${problems.slice(0, 20).join("\n")}${problems.length > 20 ? `\n(and ${problems.length - 20} more)` : ""}`);
  const torn = tail.trim() !== "" ? `; line ${lines.length + 1} is incomplete (no newline: a write a crash cut off), not counted` : "";
  return `runs file, ${lines.filter((l) => l.trim() !== "").length} runs${torn}`;
}
