import { isAbsolute, relative, resolve } from "node:path";

/**
 * A path as a user would type it here: relative to the working directory when it lies inside it,
 * absolute otherwise (a "../../elsewhere/x" is harder to read than the path itself).
 */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), resolve(path));
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? resolve(path) : rel;
}
