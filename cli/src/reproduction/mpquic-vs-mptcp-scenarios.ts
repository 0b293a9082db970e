/**
 * The network scenarios of seed 003 §5.2.1: two disjoint paths whose capacity, RTT, queuing delay
 * and random loss are drawn by the WSP space-filling design from Table 5.1's ranges, in four
 * classes (low and high bandwidth-delay product, with and without random loss), each path drawn on
 * its own. Every scenario runs twice, once with each path first (the path a single-path transport
 * uses and the one a multipath connection opens on), as the seed varied the initial path.
 */
import { wspUnitDesign, type NetworkConfig, type PathConfig } from "@pagepath/results";

export interface ScenarioClass {
  name: string;
  /** Table 5.1's ranges for this class, per path. */
  rateMbit: [number, number];
  rttMs: [number, number];
  queuingDelayMs: [number, number];
  loss: [number, number];
}

/** Table 5.1; "losses" classes draw loss up to 2.5%, the others have none. */
export const SCENARIO_CLASSES: ScenarioClass[] = [
  { name: "low-bdp-no-loss", rateMbit: [1, 50], rttMs: [0, 50], queuingDelayMs: [0, 100], loss: [0, 0] },
  { name: "low-bdp-losses", rateMbit: [1, 50], rttMs: [0, 50], queuingDelayMs: [0, 100], loss: [0, 0.025] },
  { name: "high-bdp-no-loss", rateMbit: [1, 50], rttMs: [0, 400], queuingDelayMs: [0, 2000], loss: [0, 0] },
  { name: "high-bdp-losses", rateMbit: [1, 50], rttMs: [0, 400], queuingDelayMs: [0, 2000], loss: [0, 0.025] },
];

/** The seed's count per class. */
export const SEED_SCENARIOS = 253;

/**
 * A router buffer holds at least this many packets: with none, a path could carry nothing at its
 * rate (the seed's tc policer needs a burst of at least one packet; a few more let a window of
 * back-to-back segments through).
 */
const MIN_QUEUE_PACKETS = 4;
const PACKET_BITS = 1500 * 8;

export interface Scenario {
  /** e.g. low-bdp-no-loss-s007 */
  name: string;
  className: string;
  paths: [PathConfig, PathConfig];
  /** Each path's drawn queuing delay, ms (its buffer is that long at its rate). */
  queuingDelayMs: [number, number];
}

/** `count` scenarios of a class, the same for the same seed. */
export function scenarios(c: ScenarioClass, count: number, seed = 1): Scenario[] {
  const axes: [number, number][] = [c.rateMbit, c.rttMs, c.queuingDelayMs, ...(c.loss[1] > 0 ? [c.loss] : [])];
  const design = wspUnitDesign(count, 2 * axes.length, seed);
  const width = String(count).length;
  return design.map((unit, i) => {
    const drawn = (path: number, axis: number) => {
      const [lo, hi] = axes[axis]!;
      return lo + (hi - lo) * unit[path * axes.length + axis]!;
    };
    const path = (p: number): [PathConfig, number] => {
      // Linear scales, as the seed's design covered its ranges (after Paasch et al.).
      const rate = Number(drawn(p, 0).toPrecision(3));
      const queuing = Math.round(drawn(p, 2));
      const loss = axes.length > 3 ? Math.round(drawn(p, 3) * 1e5) / 1e5 : 0;
      const packets = Math.max(MIN_QUEUE_PACKETS, Math.round((rate * 1e6 * (queuing / 1000)) / PACKET_BITS));
      return [{ upMbps: rate, downMbps: rate, rttMs: Math.round(drawn(p, 1) * 10) / 10, loss, queue: { discipline: "droptail", packets } }, queuing];
    };
    const [[a, qa], [b, qb]] = [path(0), path(1)];
    return { name: `${c.name}-s${String(i + 1).padStart(width, "0")}`, className: c.name, paths: [a, b], queuingDelayMs: [qa, qb] };
  });
}

/** The scenario's two networks: path 1 first (`-a`) and path 2 first (`-b`). */
export function scenarioNetworks(s: Scenario): [NetworkConfig, NetworkConfig] {
  return [
    { name: `${s.name}-a`, paths: [s.paths[0], s.paths[1]] },
    { name: `${s.name}-b`, paths: [s.paths[1], s.paths[0]] },
  ];
}
