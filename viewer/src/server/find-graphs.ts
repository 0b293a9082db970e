import { closeSync, openSync, readSync } from "node:fs";
import { walkFiles } from "./walk-dir.js";

const HEAD_BYTES = 4096;
const GRAPH_KIND = /"kind"\s*:\s*"pagepath-graph"/;

/**
 * The *.json files under dir that are pagepath graphs, as judged from their first bytes (kind sits
 * near the top), so other JSON (recordings, results) is skipped without parsing it. A file that
 * cannot be read at all is returned too: it may be a graph, and the index should say what is wrong.
 */
export function findGraphFiles(dir: string): string[] {
  const out: string[] = [];
  walkFiles(dir, (p, name) => {
    if (name.endsWith(".json") && looksLikeGraph(p)) out.push(p);
  });
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
