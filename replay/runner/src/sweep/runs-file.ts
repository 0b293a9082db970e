import { appendFileSync, existsSync, readFileSync, truncateSync } from "node:fs";
import type { RunResult } from "@pagepath/results";

const trimmed = new Set<string>();

/**
 * Appends one run result as one line, with a single write (docs/formats/experiment-results.md). The
 * first append of a process cuts the file back to its last newline, dropping a line that a crash
 * left half-written, so the new line does not join it.
 */
export function appendRun(runsFile: string, r: RunResult): void {
  if (!trimmed.has(runsFile)) {
    cutPartialLine(runsFile);
    trimmed.add(runsFile);
  }
  appendFileSync(runsFile, JSON.stringify(r) + "\n");
}

function cutPartialLine(file: string): void {
  if (!existsSync(file)) return;
  const bytes = readFileSync(file);
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return;
  truncateSync(file, bytes.lastIndexOf(0x0a) + 1);
}
