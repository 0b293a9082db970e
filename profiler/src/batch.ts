import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { recordPage, type ProfileOptions } from "./record-page.js";
import { readManifest, writeRecording } from "./recording-store.js";
import { conditionsKey, conditionsLabel, recordingName } from "./slug.js";

export interface BatchItemResult {
  url: string;
  dir: string;
  status: "complete" | "incomplete" | "skipped" | "error";
  reason: string | null;
  durationMs: number;
}

export type BatchEvent =
  | { type: "start"; url: string; index: number; total: number }
  | { type: "done"; result: BatchItemResult; done: number; total: number };

/**
 * Profiles many URLs, N at a time, each in its own fresh browser. A failing page is recorded as
 * incomplete and the batch goes on; complete recordings of the same URL under the same conditions
 * already in outDir are skipped (resume). Each URL and conditions has its own directory (recordingName).
 */
export async function profileBatch(
  urls: string[],
  outDir: string,
  options: ProfileOptions & { concurrency: number; resume: boolean },
  onEvent: (e: BatchEvent) => void = () => {},
): Promise<BatchItemResult[]> {
  mkdirSync(outDir, { recursive: true });
  const results: BatchItemResult[] = new Array(urls.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < urls.length; i = next++) {
      const url = urls[i]!;
      const dir = join(outDir, recordingName(url, options.conditions));
      onEvent({ type: "start", url, index: i, total: urls.length });
      results[i] = await profileOne(url, dir, options);
      onEvent({ type: "done", result: results[i]!, done: ++done, total: urls.length });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, urls.length)) }, worker));
  return results;
}

async function profileOne(url: string, dir: string, options: ProfileOptions & { resume: boolean }): Promise<BatchItemResult> {
  const t0 = Date.now();
  if (options.resume && existsSync(dir)) {
    try {
      const m = readManifest(dir);
      // Names carried no conditions before: a recording of another load can sit under this one's name.
      if (m.status === "complete" && conditionsKey(m.conditions) !== conditionsKey(options.conditions)) {
        const reason = `${dir} holds a recording under other conditions (${conditionsLabel(m.conditions) || "the defaults"}), made before recording names said their conditions: move it away, or give --force to record over it`;
        return { url, dir, status: "error", reason, durationMs: 0 };
      }
      if (m.status === "complete") return { url, dir, status: "skipped", reason: "already recorded", durationMs: 0 };
    } catch {
      /* unreadable: record it again */
    }
  }
  try {
    const { recording } = await recordPage(url, options);
    writeRecording(dir, recording);
    return { url, dir, status: recording.manifest.status, reason: recording.manifest.reason, durationMs: Date.now() - t0 };
  } catch (e) {
    return { url, dir, status: "error", reason: (e as Error).message, durationMs: Date.now() - t0 };
  }
}
