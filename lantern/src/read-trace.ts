import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FILES, readManifest, RecordingError, type RecordingManifest } from "@pagepath/profiler";

/** A recording's manifest and trace events: all Lantern reads of it. */
export interface RecordingTrace {
  manifest: RecordingManifest;
  /** trace.json's path, which errors about the trace name. */
  file: string;
  traceEvents: unknown[];
}

/** Reads what Lantern needs, saying which file is missing or wrong (a recording without a trace cannot be simulated). */
export function readRecordingTrace(dir: string): RecordingTrace {
  const manifest = readManifest(dir);
  const file = join(dir, FILES.trace);
  if (!manifest.files.trace) throw new RecordingError(file, "the recording has no trace (recorded with --no-trace, or tracing failed), and Lantern works from the trace");
  if (!existsSync(file)) throw new RecordingError(file, "missing, though the manifest lists it");
  let parsed: { traceEvents?: unknown };
  try {
    parsed = JSON.parse(readFileSync(file, "utf8")) as { traceEvents?: unknown };
  } catch (e) {
    throw new RecordingError(file, `not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed?.traceEvents)) throw new RecordingError(file, `"traceEvents" must be an array`);
  return { manifest, file, traceEvents: parsed.traceEvents };
}
