import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fixtureDir, type RunningSite } from "@pagepath/corpus";
import { profileBatch, recordingName } from "@pagepath/profiler";
import { optionsFor } from "./fixture-profile.js";

/** The rule fixture pages (corpus/fixtures/rules), one per dependency rule family. */
export function rulePages(): string[] {
  return readdirSync(join(fixtureDir("rules"), "hosts", "www.rules.test"))
    .filter((f) => f.endsWith(".html") && !f.startsWith("frame-"))
    .map((f) => f.replace(/\.html$/, ""))
    .sort();
}

export const ruleUrl = (page: string) => `https://www.rules.test/${page}.html`;

/**
 * Profiles every rule page into outDir, one at a time (timing-sensitive structure should not
 * compete for the CPU). A quiet period of 2.5 s lets the late-timers page show its 1.5 s timer.
 */
export async function profileRulePages(site: RunningSite, outDir: string, pages = rulePages()): Promise<Map<string, string>> {
  const results = await profileBatch(pages.map(ruleUrl), outDir, { ...optionsFor(site, { stop: { quietMs: 2500, capMs: 20_000 } }), concurrency: 1, resume: false });
  const failed = results.filter((r) => r.status !== "complete");
  if (failed.length) throw new Error(`profiling rule pages failed: ${failed.map((f) => `${f.url}: ${f.reason}`).join("; ")}`);
  return new Map(pages.map((p) => [p, join(outDir, recordingName(ruleUrl(p)))]));
}
