import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** The trace engine Lantern comes from, as installed (`@paulirish/trace_engine@0.0.65`): results record it. */
export function lanternEngine(): string {
  const file = createRequire(import.meta.url).resolve("@paulirish/trace_engine/package.json");
  const pkg = JSON.parse(readFileSync(file, "utf8")) as { name: string; version: string };
  return `${pkg.name}@${pkg.version}`;
}
