import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { RECIPE_FILE } from "./recipe.js";

/** The bundled recipes (corpus/realistic/<name>/recipe.json), by name, in name order. */
export function realisticRecipes(): { name: string; dir: string }[] {
  // compiled to corpus/dist/src/realistic/, so the package root is three levels up
  const root = join(fileURLToPath(new URL("../../../", import.meta.url)), "realistic");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => existsSync(join(root, n, RECIPE_FILE)))
    .sort()
    .map((name) => ({ name, dir: join(root, name) }));
}
