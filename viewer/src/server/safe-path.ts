import { realpathSync } from "node:fs";
import { relative, resolve, sep } from "node:path";

/** True when `path` is `root` or below it, after resolving "..", and symbolic links where they exist. */
export function insideRoot(root: string, path: string): boolean {
  const lexical = resolve(path);
  if (!below(resolve(root), lexical)) return false;
  try {
    return below(realpathSync(root), realpathSync(lexical));
  } catch {
    // Does not exist (yet): the lexical check is all there is to make.
    return true;
  }
}

/** The file a relative path names under root, or null when it would leave root. */
export function resolveUnder(root: string, relPath: string): string | null {
  if (relPath.includes("\0")) return null;
  const path = resolve(root, "." + sep + relPath);
  return insideRoot(root, path) ? path : null;
}

/** A URL path segment decoded once, so "%2e%2e%2f" is judged as the "../" it means; null if malformed. */
export function decodeUrlPath(urlPath: string): string | null {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return null;
  }
}

export function relativeUrlPath(root: string, path: string): string {
  return relative(resolve(root), resolve(path)).split(sep).join("/");
}

function below(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
