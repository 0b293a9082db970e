import { existsSync } from "node:fs";
import { join } from "node:path";
import { recordingName, writeRecording, type Imported } from "@pagepath/profiler";
import { UsageError } from "../verb.js";
import { shownPath } from "../shown-path.js";

/** The options every import takes. */
export const IMPORT_OPTIONS = {
  out: { type: "string", default: "recordings" },
  "keep-credentials": { type: "boolean", default: false },
  force: { type: "boolean", default: false },
} as const;

export const IMPORT_OPTION_HELP = `  --out DIR             where recordings go (default ./recordings)
  --keep-credentials    keep cookie and credential header values
  --force               import over a recording of the same name`;

/**
 * Imports each of `items` (files or folders) with `read`, writing each as a recording under --out
 * named as profile names its recordings; an item that cannot be imported is reported at the end
 * and the others are imported. Exit 1 if any failed.
 */
export async function importBatch(verb: string, items: string[], values: Record<string, unknown>, read: (item: string, keepCredentials: boolean) => Imported): Promise<number> {
  if (!items.length) throw new UsageError("expected at least one file or folder to import");
  const out = String(values.out);
  const failed: string[] = [];
  for (const item of items) {
    try {
      const imported = read(item, values["keep-credentials"] === true);
      const dir = join(out, recordingName(imported.recording.manifest.url));
      if (existsSync(join(dir, "manifest.json")) && values.force !== true) {
        failed.push(`${shownPath(item)}: ${shownPath(dir)} already exists (--force imports over it)`);
        continue;
      }
      writeRecording(dir, imported.recording);
      process.stdout.write(summary(item, dir, imported));
    } catch (e) {
      failed.push((e as Error).message);
    }
  }
  if (failed.length) process.stderr.write(`pagepath ${verb}: ${failed.length} of ${items.length} not imported:\n${failed.map((f) => `  ${f}\n`).join("")}`);
  return failed.length ? 1 : 0;
}

function summary(item: string, dir: string, imported: Imported): string {
  const r = imported.recording;
  const inferred = new Set(r.archive.filter((e) => e.initiator.inferred).map((e) => e.requestId)).size;
  const lines = [
    `${shownPath(item)} -> ${shownPath(dir)}  (${r.manifest.status}${r.manifest.reason ? `: ${r.manifest.reason}` : ""})`,
    `  ${r.archive.length} requests, ${r.bodies.size} bodies, ${inferred} initiators inferred; load ${r.manifest.lifecycle.load ?? "-"} ms`,
    ...imported.warnings.map((w) => `  warning: ${w}`),
  ];
  return lines.join("\n") + "\n";
}
