/** The link and CPU Lantern simulates: the replay's condition, in pagepath's units. */
export interface LanternConditions {
  /** Round-trip time of the simulated link, ms (the same figure as a replay's --rtt-ms). */
  rttMs: number;
  /** Rate of the simulated link, Mbit/s of 10^6 bits (the same figure as a replay's --rate-mbit). */
  throughputMbit: number;
  /** How much slower the CPU is than the recording's (default 1: replayed on the machine that recorded). */
  cpuSlowdown?: number;
}

/** Lantern's throttling settings for a condition: `throttlingMethod: "simulate"`, as Lighthouse runs it by default. */
export interface LanternThrottling {
  rttMs: number;
  /** Lantern multiplies this by 1024 to get bits per second, so it is kibibits, not kilobits. */
  throughputKbps: number;
  cpuSlowdownMultiplier: number;
  requestLatencyMs: number;
  downloadThroughputKbps: number;
  uploadThroughputKbps: number;
}

export function lanternThrottling(c: LanternConditions): LanternThrottling {
  if (!(c.rttMs >= 0) || !Number.isFinite(c.rttMs)) throw new RangeError(`rttMs ${c.rttMs}: expected a number of ms, 0 or more`);
  if (!(c.throughputMbit > 0) || !Number.isFinite(c.throughputMbit)) throw new RangeError(`throughputMbit ${c.throughputMbit}: expected a positive number`);
  const cpu = c.cpuSlowdown ?? 1;
  if (!(cpu > 0) || !Number.isFinite(cpu)) throw new RangeError(`cpuSlowdown ${cpu}: expected a positive number`);
  return {
    rttMs: c.rttMs,
    throughputKbps: (c.throughputMbit * 1e6) / 1024,
    cpuSlowdownMultiplier: cpu,
    // Only Lantern's "devtools" method reads these; "simulate" takes the three above.
    requestLatencyMs: 0,
    downloadThroughputKbps: 0,
    uploadThroughputKbps: 0,
  };
}
