import { statSync } from "node:fs";
import { walkFiles } from "./walk-dir.js";

/** A folder's modification time, which an entry added, removed or renamed in it moves (a file's, which a write moves); null if gone. */
function mtimeOf(dir: string): bigint | null {
  try {
    return statSync(dir, { bigint: true }).mtimeNs;
  } catch {
    return null;
  }
}

interface Walked {
  /** Every folder the walk listed, with its modification time just before it was listed, and the files `collect` asked to watch. */
  folders: Map<string, bigint | null>;
  value: unknown;
}

const walked = new Map<string, Walked>();

/**
 * What `collect` gathers from the files under dir, walked again only when a folder the last walk
 * listed has gained, lost or renamed an entry since: the timeline asks on every redraw, and a
 * corpus's thousands of folders cost about 0.1 s to list against a few ms to stat. A file
 * rewritten in place under the same name does not move its folder's time, so `collect` judges
 * files by what does not change that way (their names, the kind a pagepath file declares) and
 * hands `watch` any file it could not judge yet (one still empty, being written).
 */
export function cachedWalk<T>(key: string, dir: string, collect: (walk: (visit: (path: string, name: string) => void) => void, watch: (file: string) => void) => T): T {
  const last = walked.get(key);
  if (last && [...last.folders].every(([folder, mtime]) => mtimeOf(folder) === mtime)) return last.value as T;
  const folders = new Map<string, bigint | null>();
  const seen = (path: string) => folders.set(path, mtimeOf(path));
  const value = collect((visit) => walkFiles(dir, visit, seen), seen);
  walked.set(key, { folders, value });
  return value;
}
