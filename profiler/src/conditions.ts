import { KnownDevices } from "puppeteer-core";
import type { Conditions, DeviceConditions, NetworkConditions } from "./recording.js";

/** Chrome DevTools' throttling presets (latency and throughput already scaled as DevTools does). */
const NETWORK_PRESETS: Record<string, Omit<NetworkConditions, "name">> = {
  "slow-3g": { latencyMs: 2000, downloadKbps: 400, uploadKbps: 400 },
  "fast-3g": { latencyMs: 562.5, downloadKbps: 1440, uploadKbps: 675 },
  "slow-4g": { latencyMs: 150, downloadKbps: 1600, uploadKbps: 750 },
};

/** "fast-3g", or "LATENCY_MS,DOWN_KBPS,UP_KBPS". */
export function parseNetwork(spec: string): NetworkConditions {
  const preset = NETWORK_PRESETS[spec];
  if (preset) return { name: spec, ...preset };
  const parts = spec.split(",").map(Number);
  if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x) || x < 0)) {
    throw new Error(
      `--network "${spec}": expected one of ${Object.keys(NETWORK_PRESETS).join(", ")} or LATENCY_MS,DOWN_KBPS,UP_KBPS with non-negative numbers`,
    );
  }
  const [latencyMs, downloadKbps, uploadKbps] = parts as [number, number, number];
  return { name: "custom", latencyMs, downloadKbps, uploadKbps };
}

/** A device name puppeteer knows ("iPhone 15"), or a viewport "WIDTHxHEIGHT[@SCALE]". */
export function parseDevice(spec: string): DeviceConditions {
  const known = (KnownDevices as Record<string, { userAgent: string; viewport: { width: number; height: number; deviceScaleFactor?: number; isMobile?: boolean } }>)[spec];
  if (known) {
    return {
      name: spec,
      width: known.viewport.width,
      height: known.viewport.height,
      deviceScaleFactor: known.viewport.deviceScaleFactor ?? 1,
      mobile: known.viewport.isMobile ?? false,
      userAgent: known.userAgent,
    };
  }
  const m = /^(\d+)x(\d+)(?:@(\d+(?:\.\d+)?))?$/.exec(spec);
  if (!m) throw new Error(`--device "${spec}": not a known device name nor a viewport like 1280x800 or 390x844@3`);
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 1 || height < 1 || width > 10000 || height > 10000) throw new Error(`--device "${spec}": viewport must be 1..10000 pixels each way`);
  return { name: spec, width, height, deviceScaleFactor: m[3] ? Number(m[3]) : 1, mobile: false };
}

export function parseCpuThrottle(spec: string): number {
  const rate = Number(spec);
  if (!Number.isFinite(rate) || rate < 1 || rate > 100) throw new Error(`--cpu-throttle "${spec}": expected a slowdown factor from 1 (none) to 100`);
  return rate;
}

export const NO_CONDITIONS: Conditions = { cpuThrottlingRate: 1, network: null, device: null };
