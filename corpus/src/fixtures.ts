import { fileURLToPath } from "node:url";
import { join } from "node:path";

/** Path of a bundled fixture site under corpus/fixtures/. */
export function fixtureDir(name: string): string {
  // compiled to corpus/dist/src/, so the package root is two levels up
  return join(fileURLToPath(new URL("../../", import.meta.url)), "fixtures", name);
}
