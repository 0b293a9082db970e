import { closeSync, openSync, readSync } from "node:fs";
import { walkFiles } from "./walk-dir.js";

const HEAD_BYTES = 4096;

/**
 * The *.json files under dir of one pagepath kind ("pagepath-graph", "pagepath-run"), as judged from
 * their first bytes (kind sits near the top), so other JSON is skipped without parsing it. A file that
 * cannot be read at all is returned too: it may be one, and the index should say what is wrong.
 */
export function findJsonOfKind(dir: string, kind: string): string[] {
  const pattern = new RegExp(`"kind"\\s*:\\s*"${kind}"`);
  const out: string[] = [];
  walkFiles(dir, (p, name) => {
    if (name.endsWith(".json") && headMatches(p, pattern)) out.push(p);
  });
  return out;
}

function headMatches(file: string, pattern: RegExp): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return pattern.test(buf.subarray(0, n).toString("utf8"));
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
