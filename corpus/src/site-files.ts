import { statSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import type { SiteConfig } from "./site-config.js";

/**
 * The file a site serves for a decoded URL path on one of its hosts: the host's own folder
 * (hosts/<host>/) first, then the host's mounts in order; a folder URL means its index.html.
 * Paths that climb out of a folder match nothing.
 */
export function findSiteFile(siteDir: string, config: SiteConfig, host: string, urlPath: string): string | undefined {
  // as web servers do, a folder URL means its index page
  const filePath = urlPath.endsWith("/") ? urlPath + "index.html" : urlPath;
  const roots: { root: string; rest: string }[] = [{ root: join(siteDir, "hosts", host), rest: filePath }];
  for (const m of config.mounts) {
    if (m.host === host && filePath.startsWith(m.at)) roots.push({ root: m.dir, rest: filePath.slice(m.at.length - 1) });
  }
  for (const { root, rest } of roots) {
    const base = normalize(root).replace(/\/+$/, "");
    const file = normalize(join(base, rest));
    if (!file.startsWith(base + sep)) continue;
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      /* not here: try the next root */
    }
  }
  return undefined;
}
