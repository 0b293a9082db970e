import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { buildGraph, loadRecording, type Graph } from "@pagepath/graph-builder";
import { FILES, listRecordings, readManifest } from "@pagepath/profiler";
import { siteMetrics, type SiteMetrics } from "./site-metrics.js";
import { summarise, type Distribution, type MeasureSummary, type Summary, type Unit } from "./summary.js";
import { cdfSvg } from "./svg-plot.js";
import { THESIS, thesisValues, type ThesisValue } from "./thesis.js";

export interface StatsReport {
  summary: Summary;
  sites: { dir: string; graph: boolean; metrics: SiteMetrics }[];
  /** Recordings left out: incomplete, or unreadable. */
  skipped: { dir: string; reason: string }[];
  /** Recordings kept without their graph-based measures because the graph could not be built. */
  noGraph: { dir: string; reason: string }[];
  /** The stats.md table, for printing. */
  markdown: string;
  files: { json: string; markdown: string; svgs: string[] };
}

/**
 * Characterises the recordings in dirs (each a recording, or a directory of recordings) as seed
 * 001 §4.2 does, and writes stats.json, stats.md and one SVG of CDFs per measure into outDir.
 * Incomplete recordings are left out, as their pages never finished loading; a recording that
 * cannot be read is reported and the others go on.
 */
export function statsReport(dirs: string[], outDir: string): StatsReport {
  const sites: StatsReport["sites"] = [];
  const skipped: StatsReport["skipped"] = [];
  const noGraph: StatsReport["noGraph"] = [];
  for (const dir of recordingDirs(dirs, skipped)) {
    try {
      const manifest = readManifest(dir);
      if (manifest.status !== "complete") {
        skipped.push({ dir, reason: `incomplete: ${manifest.reason ?? "no reason recorded"}` });
        continue;
      }
      const rec = loadRecording(dir);
      let graph: Graph | null = null;
      try {
        graph = buildGraph(rec);
      } catch (e) {
        noGraph.push({ dir, reason: (e as Error).message });
      }
      sites.push({ dir, graph: graph !== null, metrics: siteMetrics(rec, graph) });
    } catch (e) {
      skipped.push({ dir, reason: (e as Error).message });
    }
  }
  const summary = summarise(sites.map((s) => s.metrics));
  mkdirSync(outDir, { recursive: true });
  const svgs = summary.measures.map((m) => {
    const file = join(outDir, `${m.id}.svg`);
    writeFileSync(file, plot(m));
    return file;
  });
  const markdown = table(summary);
  const files = { json: join(outDir, "stats.json"), markdown: join(outDir, "stats.md"), svgs };
  writeFileSync(files.json, JSON.stringify({ summary, thesis: THESIS, sites, skipped, noGraph }, null, 1) + "\n");
  writeFileSync(files.markdown, markdownFile(summary, markdown, skipped, noGraph, svgs));
  return { summary, sites, skipped, noGraph, markdown, files };
}

function recordingDirs(dirs: string[], skipped: StatsReport["skipped"]): string[] {
  return dirs.flatMap((d) => {
    if (existsSync(join(d, FILES.manifest))) return [d];
    if (!existsSync(d) || !statSync(d).isDirectory()) {
      skipped.push({ dir: d, reason: "not a directory" });
      return [];
    }
    const found = listRecordings(d);
    if (found.length === 0) skipped.push({ dir: d, reason: "no recordings (directories with a manifest.json) in it" });
    return found;
  });
}

function plot(m: MeasureSummary): string {
  const name = (series: string): string => (series === "all" ? `all ${m.over}` : series);
  return cdfSvg({
    title: `${m.title}${m.figure ? ` (cf. seed 001 ${m.figure})` : ""}`,
    xLabel: `${m.title.toLowerCase()}, ${UNIT_WORD[m.unit]}`,
    logX: m.unit === "bytes",
    series: m.series.map((s) => ({ name: `${name(s.name)} (n=${s.stats?.n ?? 0})`, points: s.cdf })),
    reference: m.series.flatMap((s) =>
      thesisValues(m.id, s.name).map((t) => ({ name: `thesis: ${s.name === "all" ? "" : `${s.name} `}${claim(t, m.unit)}`, value: t.value })),
    ),
  });
}

const UNIT_WORD: Record<Unit, string> = { bytes: "bytes", count: "count", share: "fraction" };

function table(summary: Summary): string {
  const rows = [
    "| measure | over | n | median | p10 | p90 | thesis (seed 001 §4.2) | ours / thesis |",
    "|---|---|---:|---:|---:|---:|---|---|",
  ];
  for (const m of summary.measures) {
    for (const s of m.series) {
      const name = `${m.title}${s.name === "all" ? "" : `: ${s.name}`}${m.figure ? ` [${m.figure}]` : ""}`;
      const st = s.stats;
      const refs = thesisValues(m.id, s.name);
      const cells = st ? [String(st.n), fmt(st.median, m.unit), fmt(st.p10, m.unit), fmt(st.p90, m.unit)] : ["0", "–", "–", "–"];
      rows.push(`| ${[name, m.over, ...cells, refs.map((t) => claim(t, m.unit)).join("; ") || "–", ratios(refs, st)].join(" | ")} |`);
    }
  }
  return rows.join("\n") + "\n";
}

/** "median ≤ 3 MB*": the star marks a value the text hedges. */
function claim(t: ThesisValue, unit: Unit): string {
  return `${t.statistic} ${t.relation} ${fmt(t.value, unit)}${t.approximate ? "*" : ""}`;
}

function ratios(refs: ThesisValue[], st: Distribution | null): string {
  if (!st || refs.length === 0) return "–";
  return refs.map((t) => `${t.statistic} ×${(st[t.statistic] / t.value).toPrecision(2)}`).join("; ");
}

function fmt(v: number, unit: Unit): string {
  if (unit === "share") return `${(v * 100).toFixed(1)}%`;
  if (unit === "count") return Number.isInteger(v) ? String(v) : v.toFixed(1);
  const [div, name] = ([[1e9, "GB"], [1e6, "MB"], [1e3, "KB"]] as const).find(([d]) => v >= d) ?? [1, "B"];
  return div === 1 ? `${Math.round(v)} B` : `${Number((v / div).toPrecision(3))} ${name}`;
}

function markdownFile(summary: Summary, markdown: string, skipped: StatsReport["skipped"], noGraph: StatsReport["noGraph"], svgs: string[]): string {
  const list = (items: { dir: string; reason: string }[]): string => items.map((i) => `- \`${i.dir}\`: ${i.reason}`).join("\n");
  return [
    "# Page characterisation (seed 001 §4.2)",
    "",
    `${summary.sites} page(s), ${summary.resources} resource(s). A resource is a response fetched over the network ` +
      "(last redirect hop, not failed, not from a cache), documents included; sizes are decoded body bytes; " +
      "KB and MB are decimal. Thesis values are the ones its text states; * marks those it hedges " +
      '("about", "nearly"). Domains are host names; CDN hosts are recognised by name only.',
    "",
    markdown,
    skipped.length ? `## Left out\n\n${list(skipped)}\n` : "",
    noGraph.length ? `## No graph (graph-based measures missing)\n\n${list(noGraph)}\n` : "",
    "## Plots\n",
    svgs.map((f) => `![${basename(f)}](${basename(f)})`).join("\n\n"),
    "",
  ].join("\n");
}
