import { findJsonOfKind } from "./find-json-kind.js";

/** The pagepath graphs under dir (and files that cannot be read, for the index to name). */
export function findGraphFiles(dir: string): string[] {
  return findJsonOfKind(dir, "pagepath-graph");
}
