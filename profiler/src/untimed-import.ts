import type { Imported } from "./har-import.js";
import { importedRecording, type ImportContext } from "./imported-recording.js";
import { orderUntimed, UNTIMED_ASSUMPTION } from "./untimed-order.js";
import type { WithProblem } from "./untimed-response.js";

/**
 * The responses of an archive that keeps no timing (Mahimahi, Web Page Replay) as a recording:
 * ordered by discovery, no load time, no server delay; bodies that could not be decoded warned of.
 */
export function importUntimed(
  responses: WithProblem[],
  format: ImportContext["format"],
  source: string,
  recordedAtMs: number,
  options: { page?: string | null; keepCredentials?: boolean },
  warnings: string[],
): Imported {
  const kept = responses.filter((r) => r.problem).map((r) => `kept as sent: ${r.url}: ${r.problem}`);
  const imported = importedRecording(orderUntimed(responses, options.page ?? null, recordedAtMs, source), {
    format,
    source,
    creator: null,
    browser: null,
    pageEpochMs: recordedAtMs,
    lifecycleMs: { domContentLoaded: null, load: null, firstContentfulPaint: null, largestContentfulPaint: null },
    keepCredentials: options.keepCredentials ?? false,
    timingAssumption: UNTIMED_ASSUMPTION,
    untimed: true,
  });
  return { recording: imported.recording, warnings: [...warnings, ...kept, ...imported.warnings] };
}
