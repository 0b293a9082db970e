import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { importHar, recordingName, writeRecording, type Imported } from "@pagepath/profiler";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const importHarCommand: Verb = {
  name: "har",
  summary: "HAR files (Chrome, Firefox, WebPageTest) as recordings that build and replay",
  usage: `
usage: pagepath import har FILE.har... [--out DIR] [--keep-credentials] [--force]

Makes each HAR's first page a recording (docs/formats/recording.md) under --out, named as
pagepath profile names its recordings, then \`pagepath build\` and \`pagepath replay\` take it as
one of their own. What the file gives is kept: each request's timing (startedDateTime, timings),
bodies (content.text), Chrome's _initiator, _priority and _resourceType. Where the file is silent
the import says what it assumed (manifest.imported.assumptions): a request naming no initiator
hangs off the response that referenced its URL before it was requested (else off the document),
marked inferred; a response with its size but not its bytes is served as filler of that size; a
HAR has no trace, so parsing and script times are zero in the graph. Credentials (Cookie,
Authorization, ...) are redacted as profile redacts them. A file that cannot be imported is
reported at the end; the others are imported.

  --out DIR             where recordings go (default ./recordings)
  --keep-credentials    keep cookie and credential header values
  --force               import over a recording of the same name
`,
  paths: { options: ["out"], positionals: true },
  options: {
    out: { type: "string", default: "recordings" },
    "keep-credentials": { type: "boolean", default: false },
    force: { type: "boolean", default: false },
  },
  async run(values, positionals) {
    if (!positionals.length) throw new UsageError("expected at least one HAR file");
    const out = String(values.out);
    const failed: string[] = [];
    for (const file of positionals) {
      try {
        const imported = importHar(readHar(file), shownPath(file), { keepCredentials: values["keep-credentials"] === true });
        const dir = join(out, recordingName(imported.recording.manifest.url));
        if (existsSync(join(dir, "manifest.json")) && values.force !== true) {
          failed.push(`${shownPath(file)}: ${shownPath(dir)} already exists (--force imports over it)`);
          continue;
        }
        writeRecording(dir, imported.recording);
        process.stdout.write(summary(file, dir, imported));
      } catch (e) {
        failed.push((e as Error).message);
      }
    }
    if (failed.length) process.stderr.write(`pagepath import har: ${failed.length} of ${positionals.length} files not imported:\n${failed.map((f) => `  ${f}\n`).join("")}`);
    return failed.length ? 1 : 0;
  },
};

function readHar(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`${shownPath(file)}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    // A HAR saved by some tools starts with a byte-order mark.
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new Error(`${shownPath(file)}: not JSON: ${(e as Error).message}`);
  }
}

function summary(file: string, dir: string, imported: Imported): string {
  const r = imported.recording;
  const inferred = new Set(r.archive.filter((e) => e.initiator.inferred).map((e) => e.requestId)).size;
  const lines = [
    `${shownPath(file)} -> ${shownPath(dir)}  (${r.manifest.status}${r.manifest.reason ? `: ${r.manifest.reason}` : ""})`,
    `  ${r.archive.length} requests, ${r.bodies.size} bodies, ${inferred} initiators inferred; load ${r.manifest.lifecycle.load ?? "-"} ms`,
    ...imported.warnings.map((w) => `  warning: ${w}`),
  ];
  return lines.join("\n") + "\n";
}
