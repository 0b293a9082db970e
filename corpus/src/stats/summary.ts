import {
  INITIATOR_CLASSES,
  MIME_CLASSES,
  PARENT_KINDS,
  PATH_PARTS,
  type ResourceMetrics,
  type SiteMetrics,
} from "./site-metrics.js";

/** One step of an empirical CDF: the fraction p of the values that are <= x. */
export interface CdfPoint {
  x: number;
  p: number;
}

export interface Distribution {
  n: number;
  min: number;
  p10: number;
  median: number;
  p90: number;
  p95: number;
  max: number;
  mean: number;
}

export type Statistic = "median" | "p90" | "p95" | "max";
export type Unit = "count" | "bytes" | "share";

export interface SeriesSummary {
  name: string;
  /** null when no site or resource has a value (e.g. no graphs were built). */
  stats: Distribution | null;
  cdf: CdfPoint[];
}

export interface MeasureSummary {
  id: MeasureId;
  title: string;
  /** The thesis figure it mirrors, or null for a measure of our own. */
  figure: string | null;
  unit: Unit;
  /** Whether the CDF runs over sites or over all the resources of all the sites pooled. */
  over: "sites" | "resources";
  series: SeriesSummary[];
}

export interface Summary {
  sites: number;
  resources: number;
  measures: MeasureSummary[];
}

/**
 * The q-quantile (0..1) by linear interpolation between the closest ranks (numpy's default, R's
 * type 7), so the median of an even count is the mean of the middle two. NaN for no values.
 */
export function quantile(values: readonly number[], q: number): number {
  return sortedQuantile(ascending(values), q);
}

function sortedQuantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const at = (xs.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(at);
  const below = xs[lo]!;
  return below + (xs[Math.min(lo + 1, xs.length - 1)]! - below) * (at - lo);
}

function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/**
 * The empirical CDF: one point per distinct value. Past maxPoints distinct values, a point is kept
 * only once p has climbed another 1/maxPoints (and always the last), which no plot can tell apart
 * from the full curve but keeps a pooled CDF of every resource of a large corpus small.
 */
export function cdf(values: readonly number[], maxPoints = 1000): CdfPoint[] {
  const xs = ascending(values);
  const all: CdfPoint[] = [];
  xs.forEach((x, i) => {
    const p = (i + 1) / xs.length;
    if (all.at(-1)?.x === x) all[all.length - 1] = { x, p };
    else all.push({ x, p });
  });
  if (all.length <= maxPoints) return all;
  const kept: CdfPoint[] = [];
  for (const [i, pt] of all.entries()) {
    if (i === all.length - 1 || pt.p - (kept.at(-1)?.p ?? 0) >= 1 / maxPoints) kept.push(pt);
  }
  return kept;
}

export function distribution(values: readonly number[]): Distribution | null {
  const xs = ascending(values);
  if (xs.length === 0) return null;
  return {
    n: xs.length,
    min: xs[0]!,
    p10: sortedQuantile(xs, 0.1),
    median: sortedQuantile(xs, 0.5),
    p90: sortedQuantile(xs, 0.9),
    p95: sortedQuantile(xs, 0.95),
    max: xs.at(-1)!,
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
  };
}

type Values = (sites: readonly SiteMetrics[]) => number[];

interface MeasureDef {
  id: string;
  title: string;
  figure: string | null;
  unit: Unit;
  over: "sites" | "resources";
  series: { name: string; values: Values }[];
}

const perSite = (f: (m: SiteMetrics) => number | null | undefined): Values => (sites) =>
  sites.map(f).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
const resourceBytes = (keep: (r: ResourceMetrics) => boolean): Values => (sites) =>
  sites.flatMap((m) => m.resources.filter(keep).map((r) => r.bytes));
const only = (values: Values): MeasureDef["series"] => [{ name: "all", values }];

const MEASURES = [
  { id: "resource-size", title: "Resource size", figure: "Fig 4.1(a)", unit: "bytes", over: "resources", series: only(resourceBytes(() => true)) },
  {
    id: "resource-size-by-mime", title: "Resource size by MIME class", figure: "Fig 4.1(b)", unit: "bytes", over: "resources",
    series: MIME_CLASSES.map((c) => ({ name: c, values: resourceBytes((r) => r.mime === c) })),
  },
  { id: "resource-count", title: "Resources per page", figure: "Fig 4.2(a)", unit: "count", over: "sites", series: only(perSite((m) => m.resourceCount)) },
  { id: "page-size", title: "Page size", figure: "Fig 4.2(b)", unit: "bytes", over: "sites", series: only(perSite((m) => m.pageBytes)) },
  { id: "mean-resource-size", title: "Mean resource size per page", figure: "Fig 4.2(c)", unit: "bytes", over: "sites", series: only(perSite((m) => m.meanResourceBytes)) },
  { id: "domains", title: "Domains per page", figure: "Fig 4.3(a)", unit: "count", over: "sites", series: only(perSite((m) => m.domains)) },
  {
    id: "largest-domain-share", title: "Share from the largest domain", figure: "Fig 4.3(b)", unit: "share", over: "sites",
    series: [
      { name: "resources", values: perSite((m) => m.largestDomain?.resourceShare) },
      { name: "bytes", values: perSite((m) => m.largestDomain?.byteShare) },
    ],
  },
  { id: "iframes", title: "Iframes per page", figure: "Fig 4.4(b)", unit: "count", over: "sites", series: only(perSite((m) => m.iframes)) },
  {
    id: "cdn-share", title: "Share on CDN host names", figure: "Fig 4.5", unit: "share", over: "sites",
    series: [
      { name: "domains", values: perSite((m) => m.cdn?.domainShare) },
      { name: "bytes", values: perSite((m) => m.cdn?.byteShare) },
    ],
  },
  {
    id: "initiator-types", title: "Share of resources by initiator", figure: null, unit: "share", over: "sites",
    series: INITIATOR_CLASSES.map((c) => ({ name: c, values: perSite((m) => m.initiatorShares?.[c]) })),
  },
  {
    id: "parent-kind-count", title: "Share of resources by parent activity", figure: "Fig 4.7", unit: "share", over: "sites",
    series: PARENT_KINDS.map((k) => ({ name: k, values: perSite((m) => m.parentShares?.count[k]) })),
  },
  {
    id: "parent-kind-bytes", title: "Share of bytes by parent activity", figure: "Fig 4.7", unit: "share", over: "sites",
    series: PARENT_KINDS.map((k) => ({ name: k, values: perSite((m) => m.parentShares?.bytes[k]) })),
  },
  {
    id: "critical-path", title: "Share of the critical path", figure: "Fig 4.8", unit: "share", over: "sites",
    series: PATH_PARTS.map((p) => ({ name: p, values: perSite((m) => m.criticalPath?.shares[p]) })),
  },
] as const satisfies readonly MeasureDef[];

export type MeasureId = (typeof MEASURES)[number]["id"];

export function summarise(sites: readonly SiteMetrics[]): Summary {
  return {
    sites: sites.length,
    resources: sites.reduce((n, m) => n + m.resourceCount, 0),
    measures: MEASURES.map((d: MeasureDef) => ({
      id: d.id as MeasureId,
      title: d.title,
      figure: d.figure,
      unit: d.unit,
      over: d.over,
      series: d.series.map((s) => {
        const values = s.values(sites);
        return { name: s.name, stats: distribution(values), cdf: cdf(values) };
      }),
    })),
  };
}
