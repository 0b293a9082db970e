import { closeSync, openSync, readSync } from "node:fs";
import { cachedWalk } from "./walk-cache.js";

const HEAD_BYTES = 4096;

/**
 * The *.json files under dir of one pagepath kind ("pagepath-graph", "pagepath-run"), as judged from
 * their first bytes (kind sits near the top), so other JSON is skipped without parsing it. A file that
 * cannot be read at all is returned too: it may be one, and the index should say what is wrong.
 * The walk is kept until a folder changes (walk-cache.ts).
 */
export function findJsonOfKind(dir: string, kind: string): string[] {
  const pattern = new RegExp(`"kind"\\s*:\\s*"${kind}"`);
  return cachedWalk(`json-of-kind\0${kind}\0${dir}`, dir, (walk, watch) => {
    const out: string[] = [];
    walk((p, name) => {
      if (!name.endsWith(".json")) return;
      let head = headMatches(p, pattern);
      if (head === "empty") {
        // Watched from before the second look, so a write after it still shows as a change.
        watch(p);
        head = headMatches(p, pattern);
      }
      if (head === true) out.push(p);
    });
    return out;
  });
}

/** Whether the file's first bytes name the kind; "empty" for a file with none yet (being written). */
function headMatches(file: string, pattern: RegExp): boolean | "empty" {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    if (n === 0) return "empty";
    return pattern.test(buf.subarray(0, n).toString("utf8"));
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
