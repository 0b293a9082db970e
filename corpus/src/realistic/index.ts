export { checkedRecipe, readRecipe, RECIPE_FILE, type Recipe, type PackagePin } from "./recipe.js";
export { obtainPackage, packageDir } from "./packages.js";
export { assembleRealisticSite } from "./assemble.js";
export { realisticRecipes } from "./recipes.js";
