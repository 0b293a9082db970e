import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fixtureDir } from "../fixtures.js";
import { DEFAULT_PARAMS } from "../generator/params.js";
import { generateSiteModel } from "../generator/model.js";
import { readSiteConfig } from "../site-config.js";
import { readRecipe } from "../realistic/recipe.js";
import { realisticRecipes } from "../realistic/recipes.js";

/** One page of the corpus: where its files come from and which URL to load. */
export interface CorpusSite {
  /** Unique, file-name safe: it names the recording and the graph. */
  name: string;
  kind: "fixture" | "realistic" | "generated";
  /** The site directory (site.json + hosts/), or where it will be generated or assembled. */
  siteDir: string;
  entry: string;
  /** For generated sites: the generator's seed and index. */
  generated?: { seed: string; index: number };
  /** For realistic sites: the recipe's folder (corpus/realistic/<name>). */
  recipeDir?: string;
}

export const DEFAULT_GENERATED = 20;
export const CORPUS_SEED = "pagepath";

/**
 * What `corpus build` makes, in a fixed order: the bundled fixture pages (the multi-origin example
 * and each rule page), the realistic sites made from registry packages by the bundled recipes, and
 * `generated` synthetic sites from the default parameters and a fixed seed.
 */
export function corpusCatalogue(dataDir: string, generated = DEFAULT_GENERATED): CorpusSite[] {
  const sites: CorpusSite[] = [];
  const multi = fixtureDir("multi-origin");
  sites.push({ name: "fixture-multi-origin", kind: "fixture", siteDir: multi, entry: readSiteConfig(multi).entry });
  const rules = fixtureDir("rules");
  for (const f of readdirSync(join(rules, "hosts", "www.rules.test")).sort()) {
    if (!f.endsWith(".html") || f.startsWith("frame-")) continue;
    sites.push({ name: `rules-${f.replace(/\.html$/, "")}`, kind: "fixture", siteDir: rules, entry: `https://www.rules.test/${f}` });
  }
  for (const { name, dir } of realisticRecipes()) {
    let entry: string;
    try {
      entry = readRecipe(dir).entry;
    } catch {
      entry = "(unreadable recipe: see corpus build)";
    }
    sites.push({ name: `real-${name}`, kind: "realistic", siteDir: join(dataDir, "sites", `real-${name}`), entry, recipeDir: dir });
  }
  for (let i = 1; i <= generated; i++) {
    const dir = join(dataDir, "sites", `gen-${CORPUS_SEED}-${i}`);
    const entry = generateSiteModel(DEFAULT_PARAMS, CORPUS_SEED, i).entry;
    sites.push({ name: `gen-${CORPUS_SEED}-${i}`, kind: "generated", siteDir: dir, entry, generated: { seed: CORPUS_SEED, index: i } });
  }
  return sites;
}
