import {
  DEFAULT_CHROMIUM,
  FULL_INSTRUMENTATION,
  NO_CONDITIONS,
  NO_INSTRUMENTATION,
  recordPage,
  type ProfileOptions,
} from "@pagepath/profiler";
import { quantile } from "@pagepath/corpus";
import { startSiteProcess } from "./site-process.js";

/**
 * Each part of the recording alone and in the combinations the profiler uses. The trace-only modes
 * are there because they separate Chromium's trace (written to a buffer on each thread) from the
 * Network domain (a protocol message built on the renderer's main thread for every request event).
 * "two-pass" is `profile --passes 2`: its load time is its timing pass's (the content pass follows).
 */
export const MODES: Record<string, Pick<ProfileOptions, "instrument" | "passes">> = {
  none: { instrument: NO_INSTRUMENTATION },
  trace: { instrument: { network: false, asyncStacks: false, trace: true } },
  "trace+async-stacks": { instrument: { network: false, asyncStacks: true, trace: true } },
  network: { instrument: { network: true, asyncStacks: false, trace: false } },
  "network+async-stacks": { instrument: { network: true, asyncStacks: true, trace: false } },
  full: { instrument: FULL_INSTRUMENTATION },
  "two-pass": { passes: 2 },
};

export interface OverheadRow {
  page: string;
  mode: string;
  loads: number;
  medianMs: number;
  p90Ms: number;
  /** Median load time in this mode / median with no instrumentation, same page, same run. */
  ratio: number;
}

export interface ThroughputRow {
  quietMs: number;
  pages: number;
  seconds: number;
  pagesPerMinute: number;
}

export interface ProfilerBenchResult {
  chromium: string;
  overhead: OverheadRow[];
  throughput: ThroughputRow[];
}

const PAGES = ["https://www.fixture.test/index.html", "https://www.fixture.test/many.html"];

/**
 * Profiler overhead: page load time (the page's own navigation timing, loadEventStart) under each
 * instrumentation mode against the same page with none, the modes taken in rotation so drift hits
 * all alike. Then whole-recording throughput with the default quiet period and with none.
 */
export async function benchProfiler(loads: number, log: (line: string) => void): Promise<ProfilerBenchResult> {
  const site = await startSiteProcess("multi-origin");
  try {
    const base: ProfileOptions = {
      executablePath: DEFAULT_CHROMIUM,
      hostResolverRules: site.hostResolverRules,
      ignoreCertificateSpki: [site.spkiHash],
      stop: { quietMs: 200, capMs: 30_000 },
      conditions: NO_CONDITIONS,
      redact: true,
    };
    let chromium = "";
    const overhead: OverheadRow[] = [];
    const names = Object.keys(MODES);
    for (const page of PAGES) {
      const times = new Map<string, number[]>(names.map((m) => [m, []]));
      for (let i = 0; i < loads; i++) {
        for (let k = 0; k < names.length; k++) {
          const mode = names[(i + k) % names.length]!;
          const r = await recordPage(page, { ...base, ...MODES[mode] });
          if (r.pageLoadMs === null) throw new Error(`${page}: no load time (${r.recording.manifest.reason})`);
          chromium ||= r.recording.manifest.browser.product;
          times.get(mode)!.push(r.pageLoadMs);
        }
        log(`  ${page}: ${i + 1}/${loads} rounds`);
      }
      const reference = quantile(times.get("none")!, 0.5);
      for (const mode of names) {
        const xs = times.get(mode)!;
        overhead.push({ page, mode, loads, medianMs: quantile(xs, 0.5), p90Ms: quantile(xs, 0.9), ratio: quantile(xs, 0.5) / reference });
      }
    }
    const throughput: ThroughputRow[] = [];
    for (const quietMs of [3000, 0]) {
      const n = Math.max(4, Math.ceil(loads / 2));
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await recordPage(PAGES[i % PAGES.length]!, { ...base, stop: { quietMs, capMs: 30_000 } });
      const seconds = (performance.now() - t0) / 1000;
      throughput.push({ quietMs, pages: n, seconds, pagesPerMinute: (n * 60) / seconds });
      log(`  throughput with quiet period ${quietMs} ms: ${n} pages in ${seconds.toFixed(1)} s`);
    }
    return { chromium, overhead, throughput };
  } finally {
    await site.stop();
  }
}
