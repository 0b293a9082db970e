import { readRecording } from "@pagepath/profiler";
import { UsageError, type Verb } from "../verb.js";

export const validateVerb: Verb = {
  name: "validate",
  summary: "check recordings against their format; report what is wrong and where",
  usage: `
usage: pagepath validate <recording-dir>...

Reads each recording fully (manifest, event log, trace, archive, bodies) and reports, per item,
either "ok" with its status or the file and place that is wrong. Exit code 1 if any is invalid.
`,
  options: {},
  async run(_values, positionals) {
    if (positionals.length === 0) throw new UsageError("expected one or more recording directories");
    let bad = 0;
    for (const dir of positionals) {
      try {
        const r = readRecording(dir);
        const note = r.manifest.status === "complete" ? "" : ` (incomplete: ${r.manifest.reason})`;
        process.stdout.write(`ok       ${dir}: ${r.archive.length} requests, ${r.events.length} events${note}\n`);
      } catch (e) {
        bad++;
        process.stdout.write(`INVALID  ${(e as Error).message}\n`);
      }
    }
    return bad ? 1 : 0;
  },
};
