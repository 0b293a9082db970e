import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { schemaProblems } from "@pagepath/formats";
import { RECORDING_SCHEMA_VERSION, type ArchiveEntry, type CdpEvent, type Recording, type RecordingManifest } from "./recording.js";
import type { PageLayout } from "./layout.js";
import { parseJson, RecordingError } from "./recording-error.js";
import { traceEvents, traceFileText, type TraceSelection } from "./trace-file.js";

export const FILES = {
  manifest: "manifest.json",
  events: "events.jsonl",
  trace: "trace.json",
  archive: "archive.json",
  layout: "layout.json",
  bodies: "bodies",
} as const;

export { RecordingError } from "./recording-error.js";

/**
 * Writes a recording directory atomically: everything goes to a sibling ".partial" directory that is
 * renamed into place at the end, so a crash never leaves a half-written recording that looks whole.
 */
export function writeRecording(dir: string, r: Recording): void {
  const tmp = `${dir}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    mkdirSync(join(tmp, FILES.bodies), { recursive: true });
    writeFileSync(join(tmp, FILES.events), r.events.map((e) => JSON.stringify(e)).join("\n") + (r.events.length ? "\n" : ""));
    if (r.trace) writeFileSync(join(tmp, FILES.trace), traceFileText(r.trace));
    writeFileSync(join(tmp, FILES.archive), JSON.stringify(r.archive, null, 1));
    if (r.layout) writeFileSync(join(tmp, FILES.layout), JSON.stringify(r.layout) + "\n");
    for (const [sha, data] of r.bodies) writeFileSync(join(tmp, FILES.bodies, sha), data);
    writeFileSync(join(tmp, FILES.manifest), JSON.stringify(r.manifest, null, 2) + "\n");
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw new RecordingError(dir, `cannot write the recording: ${(e as Error).message}`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
}

export function readManifest(dir: string): RecordingManifest {
  // Said of the folder itself: a mistyped path would otherwise read as a recording without its manifest.
  if (!existsSync(dir)) throw new RecordingError(dir, "no such directory");
  if (!statSync(dir).isDirectory()) throw new RecordingError(dir, "not a directory (a recording is a directory holding manifest.json)");
  const file = join(dir, FILES.manifest);
  if (!existsSync(file)) throw new RecordingError(file, "missing: this directory is not a pagepath recording");
  const m = parseJson(file, readFileSync(file, "utf8")) as RecordingManifest;
  if (m?.kind !== "pagepath-recording") throw new RecordingError(file, `"kind" must be "pagepath-recording"`);
  // Another version's layout may differ throughout: checking its shape would bury the one thing that matters.
  if (m.schemaVersion !== RECORDING_SCHEMA_VERSION) {
    throw new RecordingError(file, `schemaVersion ${m.schemaVersion} is not supported (this pagepath reads ${RECORDING_SCHEMA_VERSION})`);
  }
  checkShape(file, m, "recording.schema.json");
  return m;
}

/**
 * Reads and checks a whole recording; bodies are loaded lazily by readBody. With `traceSelection`,
 * the trace holds only the events it wants (and the threads' names), read without parsing the rest.
 */
export function readRecording(dir: string, options: { traceSelection?: TraceSelection } = {}): Omit<Recording, "bodies"> {
  const manifest = readManifest(dir);
  const eventsFile = join(dir, FILES.events);
  if (!existsSync(eventsFile)) throw new RecordingError(eventsFile, "missing");
  const events: CdpEvent[] = [];
  readFileSync(eventsFile, "utf8").split("\n").forEach((line, i) => {
    if (!line) return;
    const e = parseJson(`${eventsFile}:${i + 1}`, line) as CdpEvent;
    checkShape(`${eventsFile}:${i + 1}`, e, "recording.schema.json#/$defs/event");
    events.push(e);
  });
  const traceFile = join(dir, FILES.trace);
  let trace: unknown[] | null = null;
  if (manifest.files.trace) {
    if (!existsSync(traceFile)) throw new RecordingError(traceFile, "missing, though the manifest lists it");
    trace = traceEvents(readFileSync(traceFile, "utf8"), traceFile, options.traceSelection);
    checkShape(traceFile, { traceEvents: trace }, "recording.schema.json#/$defs/trace");
  }
  const archive = readArchiveFile(dir);
  archive.forEach((e, i) => {
    if (e.body && !existsSync(join(dir, FILES.bodies, e.body.sha256))) {
      throw new RecordingError(join(dir, FILES.bodies, e.body.sha256), `body of entry ${i} (${e.url}) is missing`);
    }
  });
  return { manifest, events, trace, archive, layout: readLayout(dir) };
}

/**
 * A recording's layout.json, or null without one. Read whenever the file is there, so a layout
 * captured later from a replay of an older recording (docs/formats/recording.md) is used as well.
 */
export function readLayout(dir: string): PageLayout | null {
  const file = join(dir, FILES.layout);
  if (!existsSync(file)) return null;
  const layout = parseJson(file, readFileSync(file, "utf8")) as PageLayout;
  checkShape(file, layout, "recording.schema.json#/$defs/layout");
  return layout;
}

/** A recording's archive alone (the manifest checked first), for readers that need no trace. */
export function readArchive(dir: string): ArchiveEntry[] {
  readManifest(dir);
  return readArchiveFile(dir);
}

function readArchiveFile(dir: string): ArchiveEntry[] {
  const archiveFile = join(dir, FILES.archive);
  if (!existsSync(archiveFile)) throw new RecordingError(archiveFile, "missing");
  const archive = parseJson(archiveFile, readFileSync(archiveFile, "utf8")) as ArchiveEntry[];
  checkShape(archiveFile, archive, "recording.schema.json#/$defs/archive");
  return archive;
}

export function readBody(dir: string, sha256: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new RecordingError(join(dir, FILES.bodies), `not a body hash: ${sha256}`);
  return readFileSync(join(dir, FILES.bodies, sha256));
}

/** Recording directories directly under dir (those with a manifest). */
export function listRecordings(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, FILES.manifest)))
    .map((d) => join(dir, d.name))
    .sort();
}


/** The part of the recording format a JSON Schema can say, for one file; the rest is checked above. */
function checkShape(where: string, value: unknown, ref: string): void {
  const problems = schemaProblems(value, ref, "the recording format");
  if (!problems) return;
  const shown = problems.slice(0, 20).join(`\n${where}: `);
  throw new RecordingError(where, `${shown}${problems.length > 20 ? `\n${where}: (and ${problems.length - 20} more)` : ""}`);
}
