import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { SiteConfig } from "../site-config.js";
import { findSiteFile } from "../site-files.js";
import { obtainPackage } from "./packages.js";
import { parsePackageRef, readRecipe, RECIPE_FILE } from "./recipe.js";

/**
 * Makes a servable site (site.json + hosts/) under siteDir from a recipe: fetches and unpacks its
 * pinned packages into storeDir, mounts their folders on the recipe's hosts, copies the recipe's
 * stand-in files for outside hosts, and writes the rewritten copies of files whose URLs were moved
 * to another host. Returns the entry URL.
 */
export function assembleRealisticSite(recipeDir: string, storeDir: string, siteDir: string): string {
  const recipe = readRecipe(recipeDir);
  const recipeFile = join(recipeDir, RECIPE_FILE);
  const dirs = new Map<string, string>();
  for (const [alias, pin] of Object.entries(recipe.packages)) dirs.set(alias, obtainPackage(storeDir, pin));
  const inPackage = (ref: string) => {
    const { alias, path } = parsePackageRef(ref);
    return join(dirs.get(alias)!, path);
  };
  rmSync(siteDir, { recursive: true, force: true });
  mkdirSync(join(siteDir, "hosts"), { recursive: true });
  if (existsSync(join(recipeDir, "hosts"))) cpSync(join(recipeDir, "hosts"), join(siteDir, "hosts"), { recursive: true });
  const config: SiteConfig = {
    description: recipe.description,
    entry: recipe.entry,
    hosts: recipe.hosts,
    routes: recipe.routes,
    mounts: recipe.mounts.map((m) => ({ host: m.host, at: m.at, dir: inPackage(m.from) })),
    cacheControl: "public, max-age=3600",
  };
  recipe.rewrite.forEach((r, i) => {
    const u = new URL(r.url);
    let text: string;
    if (r.sources) {
      text = r.sources.map((f) => readFileSync(inPackage(f), "utf8")).join("\n");
    } else {
      const source = findSiteFile(siteDir, config, u.hostname, decodeURIComponent(u.pathname));
      if (!source) throw new Error(`${recipeFile}: rewrite[${i}].url ${r.url} names no file of the site`);
      text = readFileSync(source, "utf8");
    }
    for (const [from, to] of r.replace) {
      if (!text.includes(from)) throw new Error(`${recipeFile}: rewrite[${i}]: "${from}" does not occur in ${r.sources ? r.sources.join(" + ") : r.url}`);
      text = text.split(from).join(to);
    }
    const target = join(siteDir, "hosts", u.hostname, decodeURIComponent(u.pathname));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  });
  writeFileSync(join(siteDir, "site.json"), JSON.stringify({ ...config, recipe: basename(recipeDir) }, null, 2) + "\n");
  return recipe.entry;
}
