import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HostConfig, RouteConfig } from "../site-config.js";

/** A registry package a realistic site is made of, pinned by version and content hash. */
export interface PackagePin {
  /** name@version, exactly as the registry knows it. */
  spec: string;
  /** The tarball's Subresource-Integrity string (sha512-...), as `npm pack --json` reports it. */
  integrity: string;
}

/**
 * How to make a realistic corpus site out of registry packages: which packages, which host serves
 * which of their folders, which URLs in which files point at another host, and the stand-ins for
 * outside hosts (files under the recipe's hosts/ folder). See docs/formats/realistic-site.md.
 */
export interface Recipe {
  description: string;
  /** dashboard, documentation, single-page app, slides, landing page, editor, viewer, ... */
  kind: string;
  packages: Record<string, PackagePin>;
  entry: string;
  hosts: Record<string, HostConfig>;
  /** `from` is "<package alias>:/<folder>/" inside the unpacked package. */
  mounts: { host: string; at: string; from: string }[];
  /**
   * Files written for the site, named by the URL that serves them: the file that URL would serve,
   * or the concatenation of `sources` ("<alias>:/<file>"), with literal replacements, each of which
   * must match at least once (so a recipe that no longer fits its package fails loudly).
   */
  rewrite: { url: string; sources?: string[]; replace: [string, string][] }[];
  routes: Record<string, RouteConfig>;
}

export const RECIPE_FILE = "recipe.json";

/** Splits "<package alias>:/<path>", the way mounts and rewrite sources name package files. */
export function parsePackageRef(ref: string): { alias: string; path: string } {
  const colon = ref.indexOf(":");
  return { alias: ref.slice(0, colon), path: ref.slice(colon + 1) };
}

export function readRecipe(recipeDir: string): Recipe {
  const file = join(recipeDir, RECIPE_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: cannot read recipe: ${(e as Error).message}`);
  }
  return checkedRecipe(raw, file);
}

/** A parsed recipe checked field by field; an Error naming `file` and the field that is wrong. */
export function checkedRecipe(parsed: unknown, file: string): Recipe {
  const raw = parsed as any;
  const bad = (field: string, what: string): never => {
    throw new Error(`${file}: ${field} ${what}`);
  };
  if (typeof raw !== "object" || raw === null) bad("the recipe", "must be a JSON object");
  if (typeof raw.entry !== "string" || !/^https?:\/\//.test(raw.entry) || !URL.canParse(raw.entry)) bad('"entry"', "must be the http(s) URL of the page to load");
  if (typeof raw.hosts !== "object" || !raw.hosts) bad('"hosts"', "must map host names to their roles");
  if (!(new URL(raw.entry).hostname in raw.hosts)) bad('"entry"', "must be on one of the recipe's hosts");
  if (typeof raw.packages !== "object" || !raw.packages) bad('"packages"', "must map aliases to {spec, integrity}");
  for (const [alias, p] of Object.entries<any>(raw.packages)) {
    if (typeof p?.spec !== "string" || !/^(@[\w.-]+\/)?[\w.-]+@\d[\w.+-]*$/.test(p.spec)) bad(`packages.${alias}.spec`, "must be name@exact-version");
    if (typeof p?.integrity !== "string" || !p.integrity.startsWith("sha512-")) bad(`packages.${alias}.integrity`, "must be the tarball's sha512 integrity");
  }
  const mounts = (raw.mounts ?? []) as Recipe["mounts"];
  if (!Array.isArray(mounts)) bad('"mounts"', "must be a list");
  mounts.forEach((m, i) => {
    if (!(m?.host in raw.hosts)) bad(`mounts[${i}].host`, "must be one of the recipe's hosts");
    if (typeof m.at !== "string" || !m.at.startsWith("/") || !m.at.endsWith("/")) bad(`mounts[${i}].at`, 'must be a path starting and ending with "/"');
    const alias = typeof m.from === "string" ? parsePackageRef(m.from).alias : "";
    if (!(alias in raw.packages) || !/^[^:]+:\/(.*\/)?$/.test(m.from)) bad(`mounts[${i}].from`, 'must be "<package alias>:/<folder>/"');
    if (m.from.split("/").includes("..")) bad(`mounts[${i}].from`, "must stay inside the package");
  });
  const rewrite = (raw.rewrite ?? []) as Recipe["rewrite"];
  if (!Array.isArray(rewrite)) bad('"rewrite"', "must be a list");
  rewrite.forEach((r, i) => {
    if (typeof r?.url !== "string" || !URL.canParse(r.url) || !(new URL(r.url).hostname in raw.hosts)) bad(`rewrite[${i}].url`, "must be a URL on one of the recipe's hosts");
    if (r.sources !== undefined && (!Array.isArray(r.sources) || !r.sources.every((f) => typeof f === "string" && parsePackageRef(f).alias in raw.packages && /^[^:]+:\/[^]+$/.test(f) && !f.split("/").includes(".."))))
      bad(`rewrite[${i}].sources`, 'must be a list of "<package alias>:/<file>" inside the packages');
    const ok = Array.isArray(r.replace) && r.replace.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && p[0] !== "" && typeof p[1] === "string");
    if (!ok) bad(`rewrite[${i}].replace`, 'must be a list of ["from", "to"] pairs of strings');
  });
  return {
    description: String(raw.description ?? ""),
    kind: String(raw.kind ?? "page"),
    packages: raw.packages,
    entry: raw.entry,
    hosts: raw.hosts,
    mounts,
    rewrite,
    routes: raw.routes ?? {},
  };
}
