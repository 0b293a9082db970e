import { DEFAULT_CHROMIUM, NO_CONDITIONS, type ProfileOptions, type StopPolicy } from "@pagepath/profiler";
import type { RunningSite } from "./site-server.js";

/**
 * Profiler options that send Chromium to a site served here, under its host names, trusting its
 * per-run certificate, and nowhere else; no throttling, credentials redacted.
 */
export function siteProfileOptions(site: RunningSite, stop: StopPolicy, extraRules: string[] = []): ProfileOptions {
  return {
    executablePath: DEFAULT_CHROMIUM,
    hostResolverRules: site.hostResolverRules(extraRules),
    ignoreCertificateSpki: [site.certificate.spkiHash],
    stop,
    conditions: NO_CONDITIONS,
    redact: true,
  };
}
