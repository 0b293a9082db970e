import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { FILES } from "@pagepath/profiler";

/** corpus-data/graphs/x.json is three levels down; deeper trees are not what a user points us at. */
export const MAX_DEPTH = 4;

/**
 * Calls `visit` with every file up to MAX_DEPTH folders below dir, in name order, skipping hidden
 * folders, node_modules and recordings' response bodies; unreadable folders are skipped, as the
 * viewer shows what it can. `reading` is told of each folder just before it is listed.
 */
export function walkFiles(dir: string, visit: (path: string, name: string) => void, reading?: (dir: string) => void): void {
  const walk = (d: string, depth: number): void => {
    reading?.(d);
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(d, e.name);
      // A recording's bodies are named by their SHA-256 and are nothing the viewer looks for; in a
      // corpus they are nine files of ten, and walking them made every timeline redraw 0.2 s slower.
      if (e.isDirectory() && e.name === FILES.bodies && existsSync(join(d, FILES.manifest))) continue;
      if (e.isDirectory() && depth < MAX_DEPTH) walk(p, depth + 1);
      else if (e.isFile()) visit(p, e.name);
    }
  };
  walk(dir, 0);
}
