import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";

/** corpus-data/graphs/x.json is three levels down; deeper trees are not what a user points us at. */
const MAX_DEPTH = 4;
const HEAD_BYTES = 4096;
const GRAPH_KIND = /"kind"\s*:\s*"pagepath-graph"/;

/**
 * The *.json files under dir that are pagepath graphs, as judged from their first bytes (kind sits
 * near the top), so other JSON (recordings, results) is skipped without parsing it. A file that
 * cannot be read at all is returned too: it may be a graph, and the index should say what is wrong.
 */
export function findGraphFiles(dir: string): string[] {
  const out: string[] = [];
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
      else if (e.isFile() && e.name.endsWith(".json") && looksLikeGraph(p)) out.push(p);
    }
  };
  walk(dir, 0);
  return out;
}

function looksLikeGraph(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return GRAPH_KIND.test(buf.subarray(0, n).toString("utf8"));
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
