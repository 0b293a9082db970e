import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "./verb.js";

/** The built corpus's graphs folder and its sites (graph names): all of them, or the `--sites` asked for. */
export function corpusSites(data: string, wanted?: string[]): { graphsDir: string; sites: string[] } {
  const graphsDir = join(data, "graphs");
  if (!existsSync(graphsDir)) throw new UsageError(`--data ${data}: no graphs/ folder; build the corpus first (pagepath corpus build --data ${data})`);
  const all = readdirSync(graphsDir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
  const unknown = (wanted ?? []).filter((s) => !all.includes(s));
  if (unknown.length > 0) throw new UsageError(`--sites: ${unknown.join(", ")} not in ${graphsDir}`);
  return { graphsDir, sites: wanted ?? all };
}
