import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readBody, readRecording, toHar } from "@pagepath/profiler";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const harVerb: Verb = {
  name: "har",
  summary: "export a recording as HAR 1.2 (with initiators, priorities and bodies)",
  usage: `
usage: pagepath har <recording-dir> [-o FILE]

Writes the recording as HAR 1.2, which Chrome DevTools' Network panel can import. Chrome's
extensions are kept (_initiator with its stack, _priority, _resourceType, _fromCache); bodies are
included, binary ones base64-encoded. Default output: <recording-dir>/recording.har
  -o, --out FILE        where to write the HAR ("-" for standard output)
`,
  paths: { options: ["out"], positionals: true },
  options: { out: { type: "string", short: "o" } },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("expected exactly one recording directory");
    const dir = positionals[0]!;
    const recording = readRecording(dir);
    const har = JSON.stringify(toHar(recording, (sha) => readBody(dir, sha)), null, 1);
    const out = (values.out as string | undefined) ?? join(dir, "recording.har");
    if (out === "-") process.stdout.write(har + "\n");
    else {
      writeFileSync(out, har);
      process.stdout.write(`wrote ${shownPath(out)}\n`);
    }
    return 0;
  },
};
