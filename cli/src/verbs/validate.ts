import { existsSync, statSync } from "node:fs";
import { readGraphFile } from "@pagepath/graph-builder";
import { readRecording } from "@pagepath/profiler";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const validateVerb: Verb = {
  name: "validate",
  summary: "check recordings and graphs against their formats; report what is wrong and where",
  usage: `
usage: pagepath validate <recording-dir | graph.json>...

A directory is read as a recording (manifest, event log, trace, archive, bodies); a file as a graph
(JSON Schema graph-builder/schema/graph.schema.json, plus references, critical path and acyclicity).
Reports, per item, "ok" or the file and place that is wrong. Exit code 1 if any is invalid.
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
  const g = readGraphFile(path);
  return `graph, ${g.nodes.length} nodes, ${g.edges.length} edges, ${g.mode}`;
}
