import { mkdirSync, rmSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { readBody, readRecording, toMahimahi, toWpr } from "@pagepath/profiler";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

const exportMahimahiCommand: Verb = {
  name: "mahimahi",
  summary: "a recording as an mm-webrecord folder, for Mahimahi's mm-webreplay",
  usage: `
usage: pagepath export mahimahi <recording-dir> [--out DIR]

Writes one MahimahiProtobufs.RequestResponse per response that crossed the wire (cache hits and
failures have none), as mm-webrecord saves them, so mm-webreplay serves the page. Bodies are the
decoded ones the recording keeps, with a Content-Length to match and no content coding.
pagepath import mahimahi reads the folder back. Default output: <recording-dir>/mahimahi
  --out DIR   where to write the folder (replaced if it exists)
`,
  paths: { options: ["out"], positionals: true },
  options: { out: { type: "string" } },
  async run(values, positionals) {
    const dir = oneRecording(positionals);
    const r = readRecording(dir);
    const files = toMahimahi(r.archive, (sha) => readBody(dir, sha));
    const out = (values.out as string | undefined) ?? join(dir, "mahimahi");
    // Whole or not at all: written beside, then renamed into place.
    const partial = `${out}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    for (const [name, bytes] of files) writeFileSync(join(partial, name), bytes);
    rmSync(out, { recursive: true, force: true });
    renameSync(partial, out);
    process.stdout.write(`wrote ${shownPath(out)} (${files.size} responses)\n`);
    return 0;
  },
};

const exportWprCommand: Verb = {
  name: "wpr",
  summary: "a recording as a Web Page Replay archive (.wprgo)",
  usage: `
usage: pagepath export wpr <recording-dir> [--out FILE]

Writes Web Page Replay's Archive (gzip-compressed JSON: each request and response as raw HTTP/1.1
bytes by host and URL, the protocol each host negotiated, the recording's time) so that WPR's
replay serves the page; no certificates (WPR makes its own). pagepath import wpr reads it back.
Default output: <recording-dir>/archive.wprgo
  --out FILE  where to write the archive
`,
  paths: { options: ["out"], positionals: true },
  options: { out: { type: "string" } },
  async run(values, positionals) {
    const dir = oneRecording(positionals);
    const r = readRecording(dir);
    const out = (values.out as string | undefined) ?? join(dir, "archive.wprgo");
    const recordedAt = r.manifest.lifecycle.navigationStartWallTime !== null ? r.manifest.lifecycle.navigationStartWallTime * 1000 : Date.parse(r.manifest.startedAt);
    writeFileSync(`${out}.partial`, toWpr(r.archive, (sha) => readBody(dir, sha), recordedAt));
    renameSync(`${out}.partial`, out);
    process.stdout.write(`wrote ${shownPath(out)}\n`);
    return 0;
  },
};

function oneRecording(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError("expected exactly one recording directory");
  return positionals[0]!;
}

const SUBCOMMANDS: Verb[] = [exportMahimahiCommand, exportWprCommand];

export const exportVerb: Verb = {
  name: "export",
  summary: "a recording for other tools: Mahimahi, Web Page Replay (HAR: pagepath har)",
  usage: `
usage: pagepath export <format> <recording-dir> [options]    (pagepath export <format> --help)

${SUBCOMMANDS.map((v) => `  ${v.name.padEnd(10)} ${v.summary}`).join("\n")}

HAR 1.2 comes from pagepath har <recording-dir>.
`,
  options: {},
  subcommands: SUBCOMMANDS,
  async run() {
    return 2;
  },
};
