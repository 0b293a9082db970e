/**
 * Turns a plan's `grid` and `sample` into explicit networks: each point (rate, RTT, loss, buffer)
 * under each topology shape becomes one named NetworkConfig, so every reader and every run sees the
 * same list. Pure: the sample is seeded.
 */
import type { ExperimentPlan, NetworkGrid, NetworkSample, TopologyShape } from "./experiment.js";
import type { NetworkConfig, PathConfig } from "./run-result.js";
import { wspUnitDesign } from "./wsp.js";

/** PCP's bottleneck buffer (seed 001 §4.3): 1.5 bandwidth-delay products. */
export const DEFAULT_QUEUE_BDP = 1.5;
const MIN_QUEUE_PACKETS = 4;
const DEFAULT_TRACE_QUEUE_PACKETS = 100;

/** One point of a grid or sample: the base path, before a topology shape makes paths of it. */
interface Point {
  name: string;
  rateMbit: number | null;
  trace: { uplink: string; downlink: string } | null;
  rttMs: number;
  loss: number;
  queueBdp: number | null;
  queuePackets: number | null;
  /** The grid's queueDiscipline; a sample's buffers are drop-tail. */
  discipline: "droptail" | "red";
  /** The grid's rttJitter; 0 for a sample's. */
  rttJitter: number;
}

/** The networks the plan's grid and sample make, and what is wrong with them. */
export function generatedNetworks(plan: ExperimentPlan): { networks: NetworkConfig[]; problems: string[] } {
  const problems: string[] = [];
  const shapes = plan.topologies ?? [{ paths: 1 }];
  shapes.forEach((shape, i) => problems.push(...shapeProblems(shape, `/topologies/${i}`)));
  const points = [...(plan.grid ? gridPoints(plan.grid, problems) : []), ...(plan.sample ? samplePoints(plan.sample, problems) : [])];
  if (problems.length > 0) return { networks: [], problems };
  const networks: NetworkConfig[] = [];
  for (const point of points) {
    for (const shape of shapes) {
      if (point.trace && shape.paths === 2 && (shape.rateFactor ?? 1) !== 1) {
        problems.push(`/topologies: rateFactor ${shape.rateFactor} cannot scale trace ${point.name}: a trace has no rate to multiply`);
        continue;
      }
      networks.push({ name: joinName(point.name, shapeSuffix(shape)), paths: shapePaths(point, shape) });
    }
  }
  return { networks, problems };
}

function shapeProblems(s: TopologyShape, at: string): string[] {
  if (s.paths === 2) return [];
  return (["rttFactor", "rateFactor", "first"] as const).filter((k) => s[k] !== undefined).map((k) => `${at}/${k}: only a two-path topology has a second path to set`);
}

function gridPoints(g: NetworkGrid, problems: string[]): Point[] {
  if (!g.rateMbit?.length && !g.traces?.length) problems.push(`/grid: has neither rateMbit nor traces: there is no link capacity to run over`);
  const losses = g.loss ?? [0];
  const queues = g.queueBdp ?? [DEFAULT_QUEUE_BDP];
  const discipline = g.queueDiscipline ?? "droptail";
  const rttJitter = g.rttJitter ?? 0;
  const settings = joinName(discipline === "red" ? "red" : "", rttJitter > 0 ? `jitter${rttJitter}` : "");
  const points: Point[] = [];
  for (const rateMbit of g.rateMbit ?? []) {
    for (const rttMs of g.rttMs) {
      for (const loss of losses) {
        for (const queueBdp of queues) {
          const name = joinName(`${rateMbit}M-${rttMs}ms`, lossSuffix(loss), queueBdp === DEFAULT_QUEUE_BDP ? "" : `q${queueBdp}bdp`, settings);
          points.push({ name, rateMbit, trace: null, rttMs, loss, queueBdp, queuePackets: null, discipline, rttJitter });
        }
      }
    }
  }
  for (const t of g.traces ?? []) {
    for (const rttMs of g.rttMs) {
      for (const loss of losses) {
        const trace = { uplink: t.uplink, downlink: t.downlink };
        points.push({ name: joinName(`trace-${t.name}-${rttMs}ms`, lossSuffix(loss), settings), rateMbit: null, trace, rttMs, loss, queueBdp: null, queuePackets: g.traceQueuePackets ?? DEFAULT_TRACE_QUEUE_PACKETS, discipline, rttJitter });
      }
    }
  }
  return points;
}

/**
 * Rates, RTTs and buffers span orders of magnitude, so they are spread on a log scale (an RTT range
 * from 0 on a linear one); loss on a linear scale.
 */
function samplePoints(s: NetworkSample, problems: string[]): Point[] {
  const axes = [
    { key: "rateMbit", range: s.rateMbit, log: true, round: (x: number) => significant(x, 3) },
    { key: "rttMs", range: s.rttMs, log: s.rttMs[0] > 0, round: (x: number) => Math.round(x * 10) / 10 },
    { key: "loss", range: s.loss ?? [0, 0], log: false, round: (x: number) => Math.round(x * 1e5) / 1e5 },
    { key: "queueBdp", range: s.queueBdp ?? [DEFAULT_QUEUE_BDP, DEFAULT_QUEUE_BDP], log: true, round: (x: number) => Math.round(x * 100) / 100 },
  ];
  for (const a of axes) if (a.range[0] > a.range[1]) problems.push(`/sample/${a.key}: the range [${a.range.join(", ")}] runs backwards (low first)`);
  if (problems.length > 0) return [];
  const varying = axes.filter((a) => a.range[0] < a.range[1]);
  const design = wspUnitDesign(s.points, varying.length, s.seed ?? 1);
  return design.map((unit, i) => {
    const value = (key: string) => {
      const a = axes.find((x) => x.key === key)!;
      const d = varying.indexOf(a);
      if (d < 0) return a.range[0];
      const [lo, hi] = a.range;
      return a.round(a.log ? lo * (hi / lo) ** unit[d]! : lo + (hi - lo) * unit[d]!);
    };
    const [rateMbit, rttMs, loss, queueBdp] = ["rateMbit", "rttMs", "loss", "queueBdp"].map(value) as [number, number, number, number];
    const name = joinName(`s${String(i + 1).padStart(String(design.length).length, "0")}`, `${rateMbit}M-${rttMs}ms`, lossSuffix(loss), queueBdp === DEFAULT_QUEUE_BDP ? "" : `q${queueBdp}bdp`);
    return { name, rateMbit, trace: null, rttMs, loss, queueBdp, queuePackets: null, discipline: "droptail" as const, rttJitter: 0 };
  });
}

function shapePaths(p: Point, s: TopologyShape): PathConfig[] {
  const base = pathOf(p.rateMbit, p.rttMs, p);
  if (s.paths === 1) return [base];
  const rate = p.rateMbit === null ? null : significant(p.rateMbit * (s.rateFactor ?? 1), 6);
  const other = pathOf(rate, significant(p.rttMs * (s.rttFactor ?? 1), 6), p);
  return s.first === "other" ? [other, base] : [base, other];
}

function pathOf(rateMbit: number | null, rttMs: number, p: Point): PathConfig {
  const packets = p.queuePackets ?? Math.max(MIN_QUEUE_PACKETS, Math.ceil((p.queueBdp! * rateMbit! * 1e6 * (rttMs / 1000)) / 8 / 1500));
  const path: PathConfig = { upMbps: rateMbit, downMbps: rateMbit, rttMs, loss: p.loss, queue: { discipline: p.discipline, packets }, ...(p.rttJitter > 0 ? { rttJitter: p.rttJitter } : {}) };
  return p.trace ? { ...path, trace: p.trace } : path;
}

function shapeSuffix(s: TopologyShape): string {
  if (s.name) return s.name;
  if (s.paths === 1) return "";
  const rtt = s.rttFactor ?? 1;
  const rate = s.rateFactor ?? 1;
  return joinName("2p", rtt === 1 ? "" : `rtt${rtt}x`, rate === 1 ? "" : `bw${rate}x`, s.first === "other" ? "other-first" : "");
}

const lossSuffix = (loss: number) => (loss > 0 ? `loss${loss}` : "");
const joinName = (...parts: string[]) => parts.filter(Boolean).join("-");
const significant = (x: number, digits: number) => Number(x.toPrecision(digits));
