import { fixtureDir, serveSite } from "@pagepath/corpus";
import { DEFAULT_CHROMIUM, NO_CONDITIONS, recordPage, type ProfileOptions } from "@pagepath/profiler";
import { median, quantile } from "./stats.js";

export interface OverheadRow {
  page: string;
  loads: number;
  plainMedianMs: number;
  instrumentedMedianMs: number;
  ratio: number;
  plainP90Ms: number;
  instrumentedP90Ms: number;
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
 * Profiler overhead: page load time (the page's own navigation timing, loadEventStart) with full
 * instrumentation (network log, bodies, async stacks, tracing) against the same page loaded with no
 * instrumentation, alternating the two so drift hits both alike. Then whole-recording throughput.
 */
export async function benchProfiler(loads: number, log: (line: string) => void): Promise<ProfilerBenchResult> {
  const site = await serveSite(fixtureDir("multi-origin"));
  try {
    const base: ProfileOptions = {
      executablePath: DEFAULT_CHROMIUM,
      hostResolverRules: site.hostResolverRules(),
      ignoreCertificateSpki: [site.certificate.spkiHash],
      stop: { quietMs: 200, capMs: 30_000 },
      conditions: NO_CONDITIONS,
      redact: true,
    };
    let chromium = "";
    const overhead: OverheadRow[] = [];
    for (const page of PAGES) {
      const plain: number[] = [];
      const full: number[] = [];
      for (let i = 0; i < loads; i++) {
        for (const instrument of i % 2 ? [true, false] : [false, true]) {
          const r = await recordPage(page, { ...base, instrument });
          if (r.pageLoadMs === null) throw new Error(`${page}: no load time (${r.recording.manifest.reason})`);
          chromium ||= r.recording.manifest.browser.product;
          (instrument ? full : plain).push(r.pageLoadMs);
        }
        log(`  ${page}: ${i + 1}/${loads} pairs`);
      }
      overhead.push({
        page,
        loads,
        plainMedianMs: median(plain),
        instrumentedMedianMs: median(full),
        ratio: median(full) / median(plain),
        plainP90Ms: quantile(plain, 0.9),
        instrumentedP90Ms: quantile(full, 0.9),
      });
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
    await site.close();
  }
}
