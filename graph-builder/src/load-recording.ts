import { existsSync } from "node:fs";
import { readBody, readRecording } from "@pagepath/profiler";
import type { RecordingInput } from "./build-graph.js";
import { BUILDER_TRACE } from "./trace-selection.js";

/**
 * Reads a recording directory for the builder: the trace holds only the events the builder reads
 * (trace-selection.ts); bodies are read only when asked for.
 */
export function loadRecording(dir: string): RecordingInput {
  if (!existsSync(dir)) throw new Error(`${dir}: no such recording directory`);
  const r = readRecording(dir, { traceSelection: BUILDER_TRACE });
  return {
    dir,
    ...r,
    body: (sha) => {
      try {
        return readBody(dir, sha);
      } catch {
        return null;
      }
    },
  };
}
