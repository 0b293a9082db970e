import type { CellKey, RunResult } from "@pagepath/results";
import { describeCell, type SweepEvents } from "@pagepath/runner";
import type { Progress } from "./progress.js";

/** A sweep's events drawn on a progress bar; `failed` hears of each run that failed. */
export function sweepProgress(progress: Progress, failed: (cell: CellKey, r: RunResult) => void = () => undefined): SweepEvents {
  return {
    started: (cell, running) => {
      progress.running(running);
      progress.working(describeCell(cell));
    },
    finished: (cell, r, running) => {
      progress.running(running);
      progress.finished(describeCell(cell), r.status !== "failed", runNote(r));
      if (r.status === "failed") failed(cell, r);
    },
  };
}

/** What a progress line says of a finished run: its load time, or how it ended. */
export function runNote(r: RunResult): string {
  if (r.status === "ok") return r.metrics.loadMs === null ? "" : `load ${r.metrics.loadMs.toFixed(0)} ms`;
  return `${r.status}: ${(r.error ?? "").split("\n")[0]}`;
}
