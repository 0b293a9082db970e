import { readdirSync } from "node:fs";
import { join } from "node:path";

/** corpus-data/graphs/x.json is three levels down; deeper trees are not what a user points us at. */
export const MAX_DEPTH = 4;

/**
 * Calls `visit` with every file up to MAX_DEPTH folders below dir, in name order, skipping hidden
 * folders and node_modules; unreadable folders are skipped, as the viewer shows what it can.
 */
export function walkFiles(dir: string, visit: (path: string, name: string) => void): void {
  const walk = (d: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(d, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH) walk(p, depth + 1);
      else if (e.isFile()) visit(p, e.name);
    }
  };
  walk(dir, 0);
}
