import * as Trace from "@paulirish/trace_engine";
import { lanternThrottling, type LanternConditions } from "./conditions.js";
import { lanternInputs, type LanternInputs } from "./lantern-inputs.js";
import { readRecordingTrace } from "./read-trace.js";

/** Lantern's predictions for one recording under one condition, in ms from the main document's request. */
export interface LanternPrediction {
  fcpMs: number;
  /** null when the recording has no LCP candidate. */
  lcpMs: number | null;
  /** Lighthouse's Time to Interactive; null without LCP, which bounds it. */
  interactiveMs: number | null;
  /** Lantern simulates no load event. */
  loadMs: null;
  /** What Lantern was given: the throttling, and what it read from the recording's network. */
  settings: {
    rttMs: number;
    throughputKbps: number;
    cpuSlowdownMultiplier: number;
    /** What Lantern read from the recording as each origin's RTT above the smallest; simulated as 0, as in a replay. */
    observedAdditionalRttByOriginMs: Record<string, number>;
    /** Each origin's median server response time as Lantern read it from the recording, and simulates it. */
    serverResponseTimeByOriginMs: Record<string, number>;
  };
  warnings: string[];
}

/** Lantern's FCP, LCP and Interactive for inputs built once, under one condition. Pure: no I/O. */
export function simulateLantern(inputs: LanternInputs, conditions: LanternConditions): LanternPrediction {
  const throttling = lanternThrottling(conditions);
  const analysis = inputs.networkAnalysis;
  // A replay puts every origin behind the one emulated link, so no origin gets an RTT above the
  // link's: Lantern's observed per-origin extra RTT (on a loopback recording, the TLS handshake's
  // CPU time) is replaced by none. Its observed server response times are kept, a measured 0 as
  // 1 µs: Lantern reads 0 as "unknown" and simulates 30 ms.
  const serverResponseTimeByOrigin = Object.fromEntries(Object.entries(perOrigin(analysis.serverResponseTimeByOrigin)).map(([o, ms]) => [o, Math.max(ms, 0.001)]));
  const precomputedLanternData = { additionalRttByOrigin: {}, serverResponseTimeByOrigin };
  const simulator = Trace.Lantern.Simulation.Simulator.createSimulator({ networkAnalysis: analysis, throttlingMethod: "simulate", throttling, precomputedLanternData });
  const data = { graph: inputs.graph, simulator, processedNavigation: inputs.processedNavigation };
  const M = Trace.Lantern.Metrics;
  const fcp = M.FirstContentfulPaint.compute(data);
  const lcp = inputs.hasLcp ? M.LargestContentfulPaint.compute(data, { fcpResult: fcp }) : null;
  const interactive = lcp ? M.Interactive.compute(data, { lcpResult: lcp }) : null;
  return {
    fcpMs: fcp.timing,
    lcpMs: lcp?.timing ?? null,
    interactiveMs: interactive?.timing ?? null,
    loadMs: null,
    settings: {
      rttMs: throttling.rttMs,
      throughputKbps: throttling.throughputKbps,
      cpuSlowdownMultiplier: throttling.cpuSlowdownMultiplier,
      observedAdditionalRttByOriginMs: perOrigin(analysis.additionalRttByOrigin),
      serverResponseTimeByOriginMs: serverResponseTimeByOrigin,
    },
    warnings: inputs.warnings,
  };
}

/** Lantern's per-origin figures without its "__SUMMARY__" entry (the median over origins). */
function perOrigin(m: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...m].filter(([origin]) => origin !== "__SUMMARY__"));
}

/** Reads a recording's trace and runs Lantern on it under the condition. */
export async function predictWithLantern(recordingDir: string, conditions: LanternConditions): Promise<LanternPrediction> {
  lanternThrottling(conditions);
  return simulateLantern(await lanternInputs(readRecordingTrace(recordingDir)), conditions);
}
