import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tempRoot } from "./temp-root.js";

export { atProcessEnd } from "./process-end.js";
export { tempRoot } from "./temp-root.js";

/**
 * A new empty folder, named from `label`, under this process's temporary root: it goes when the
 * process ends, also on Ctrl-C, so a caller need not (and a test should not) remove it itself.
 */
export function tempDir(label: string): string {
  return mkdtempSync(join(tempRoot(), `${label}-`));
}
