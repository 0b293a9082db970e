import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schemaProblems } from "@pagepath/formats";
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

/**
 * A parsed recipe checked against its JSON Schema (formats/schema/recipe.schema.json), then for what
 * a schema cannot say: that names refer to the recipe's own hosts and packages and stay inside them.
 * An Error naming `file` and, per problem, the JSON pointer of the field that is wrong.
 */
export function checkedRecipe(parsed: unknown, file: string): Recipe {
  const shape = schemaProblems(parsed, "recipe.schema.json", "the recipe format");
  if (shape) throw new Error(`${file}: not a valid recipe:\n${shape.map((p) => `${file}: ${p}`).join("\n")}`);
  const raw = parsed as Recipe;
  const problems: string[] = [];
  const bad = (pointer: string, what: string) => problems.push(`${file}: ${pointer}: ${what}`);
  const isHost = (url: string) => URL.canParse(url) && new URL(url).hostname in raw.hosts;
  const isInPackages = (ref: string) => parsePackageRef(ref).alias in raw.packages && !ref.split("/").includes("..");
  if (!isHost(raw.entry)) bad("/entry", "must be a URL on one of the recipe's hosts");
  (raw.mounts ?? []).forEach((m, i) => {
    if (!(m.host in raw.hosts)) bad(`/mounts/${i}/host`, "must be one of the recipe's hosts");
    if (!isInPackages(m.from)) bad(`/mounts/${i}/from`, "must be a folder inside one of the recipe's packages");
  });
  (raw.rewrite ?? []).forEach((r, i) => {
    if (!isHost(r.url)) bad(`/rewrite/${i}/url`, "must be a URL on one of the recipe's hosts");
    (r.sources ?? []).forEach((f, j) => {
      if (!isInPackages(f)) bad(`/rewrite/${i}/sources/${j}`, "must be a file inside one of the recipe's packages");
    });
  });
  if (problems.length > 0) throw new Error(`${file}: not a valid recipe:\n${problems.join("\n")}`);
  return {
    description: String(raw.description ?? ""),
    kind: String(raw.kind ?? "page"),
    packages: raw.packages,
    entry: raw.entry,
    hosts: raw.hosts,
    mounts: raw.mounts ?? [],
    rewrite: raw.rewrite ?? [],
    routes: raw.routes ?? {},
  };
}
