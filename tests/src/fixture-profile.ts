import { serveSite, fixtureDir, siteProfileOptions, type RunningSite } from "@pagepath/corpus";
import type { ProfileOptions } from "@pagepath/profiler";

/** Profiler options that send Chromium to a running fixture site and nowhere else. */
export function optionsFor(site: RunningSite, over: Partial<ProfileOptions> = {}, extraRules: string[] = []): ProfileOptions {
  return { ...siteProfileOptions(site, { quietMs: 1000, capMs: 20_000 }, extraRules), ...over };
}

export async function startFixture(name = "multi-origin"): Promise<RunningSite> {
  return serveSite(fixtureDir(name));
}

/** Every test's temporary folders come from here: one root per test process, removed when it ends, also on Ctrl-C. */
export { tempDir } from "@pagepath/temp-dirs";
