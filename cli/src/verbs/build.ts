import { buildMany } from "@pagepath/graph-builder";
import { listRecordings } from "@pagepath/profiler";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { Progress } from "../progress.js";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const buildVerb: Verb = {
  name: "build",
  summary: "build PCP dependency graphs from recordings",
  usage: `
usage: pagepath build <recording-dir | dir-of-recordings>... [-o DIR]

Turns each recording into a dependency graph (format: docs/formats/graph.md): download and parse
chunks, resources, script/CSS evaluations, timers, events and completion markers, with the rule
behind every edge, normalised as PCP does (after-load work and timers over 1 s left out of the
emulated graph), with critical-path and MIME priorities. A recording without a trace gives a
network-only graph, and says so. One bad recording does not stop the others.
  -o, --out DIR          where graphs go, one <recording name>.json each (default ./graphs)
  --allow-incomplete     also build recordings marked incomplete
`,
  paths: { options: ["out"], positionals: true },
  options: { out: { type: "string", short: "o", default: "graphs" }, "allow-incomplete": { type: "boolean" } },
  async run(values, positionals) {
    if (positionals.length === 0) throw new UsageError("expected one or more recording directories");
    const dirs: string[] = [];
    for (const p of positionals) {
      if (!existsSync(p) || !statSync(p).isDirectory()) throw new UsageError(`${p}: not a directory`);
      dirs.push(...(existsSync(join(p, "manifest.json")) ? [p] : listRecordings(p)));
    }
    if (dirs.length === 0) throw new UsageError(`no recordings (directories with a manifest.json) in ${positionals.join(", ")}`);
    const progress = new Progress(dirs.length, "build");
    const results = buildMany(dirs, String(values.out), { allowIncomplete: values["allow-incomplete"] === true }, (r) => progress.finished(shownPath(r.recording), r.ok));
    progress.end();
    const failed = results.filter((r) => !r.ok);
    const lines = [`built ${results.length - failed.length} of ${results.length} graph(s) into ${shownPath(String(values.out))}`];
    for (const r of results) {
      lines.push(r.ok ? `  ok      ${shownPath(r.output ?? "")}: ${r.message}` : `  FAILED  ${r.message}`);
      for (const w of r.warnings) lines.push(`          warning: ${w}`);
    }
    process.stdout.write(lines.join("\n") + "\n");
    return failed.length ? 1 : 0;
  },
};
