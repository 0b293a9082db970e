import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveSite, fixtureDir, type RunningSite } from "@pagepath/corpus";
import { DEFAULT_CHROMIUM, NO_CONDITIONS, type ProfileOptions } from "@pagepath/profiler";

/** Profiler options that send Chromium to a running fixture site and nowhere else. */
export function optionsFor(site: RunningSite, over: Partial<ProfileOptions> = {}, extraRules: string[] = []): ProfileOptions {
  return {
    executablePath: DEFAULT_CHROMIUM,
    hostResolverRules: site.hostResolverRules(extraRules),
    ignoreCertificateSpki: [site.certificate.spkiHash],
    stop: { quietMs: 1000, capMs: 20_000 },
    conditions: NO_CONDITIONS,
    redact: true,
    ...over,
  };
}

export async function startFixture(name = "multi-origin"): Promise<RunningSite> {
  return serveSite(fixtureDir(name));
}

export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `pagepath-test-${label}-`));
}
