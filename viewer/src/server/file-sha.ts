import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** SHA-256 of a file's bytes, as run results name the graph they replayed (site.graphSha256). */
export function fileSha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Whether the file is there and holds exactly the bytes with that hash. */
export function hasBytes(path: string, sha256: string): boolean {
  try {
    return fileSha256(path) === sha256;
  } catch {
    return false;
  }
}
