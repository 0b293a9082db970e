/**
 * The report of seed 000's SRPT-ECF experiment (§4.7, Figs 4.11-4.12): completion-time CDFs and
 * active messages over time for the messages alone and for the page load, a table per setting,
 * and a verdict on each of the seed's two claims in each setting.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { activeCountPoints, cdfPoints, linePlotSvg, wilcoxonSignedRank } from "@pagepath/results";
import { noCompletions, SEED_PATHS, SEED_SCHEDULERS, type Completions, type PageMessages } from "./srpt-ecf-messages.js";
import { median } from "./report-statistics.js";

export interface SettingResult {
  /** Per scheduler name. */
  completions: Map<string, Completions>;
  /** Per scheduler name: each message of the smaller half (by size), its median completion over the runs, by URL. */
  small: Map<string, Map<string, number>>;
}

export interface Verdict {
  claim: string;
  verdict: "holds" | "holds in part" | "does not hold" | "no significant difference" | "not measured";
  figures: string;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "-");

/** A tail shorter by less than this is within what one run to the next moves it. */
const TAIL_MARGIN = 0.05;

/** The seed's two claims, checked on one setting. */
export function verdicts(r: SettingResult): Verdict[] {
  return [smallMessages(r), tail(r)];
}

/**
 * Claim 1, message by message: the smaller half's completions with SRPT-ECF against SRPT with
 * lowest-RTT (the same order, so only the paths differ), paired by URL, Wilcoxon's signed-rank test.
 */
function smallMessages(r: SettingResult): Verdict {
  const claim = "ECF puts the low-latency path to use for small messages: they complete sooner than with lowest-RTT (SRPT-ECF against SRPT with lowest-RTT, the same order of messages)";
  const [ecf, lowest] = [r.small.get("srpt-ecf") ?? new Map<string, number>(), r.small.get("srpt") ?? new Map<string, number>()];
  const differences = [...ecf].filter(([url]) => lowest.has(url)).map(([url, ms]) => ms - lowest.get(url)!);
  const test = wilcoxonSignedRank(differences);
  const figures = `${differences.length} small messages; median difference SRPT-ECF - SRPT with lowest-RTT ${ms(median(differences))}; medians ${ms(quantile([...ecf.values()], 0.5))} against ${ms(quantile([...lowest.values()], 0.5))}; Wilcoxon p = ${test ? test.pValue.toPrecision(2) : "-"}`;
  if (differences.length === 0) return { claim, verdict: "not measured", figures };
  const verdict = !test || test.pValue >= 0.05 ? "no significant difference" : test.z < 0 ? "holds" : "does not hold";
  return { claim, verdict, figures };
}

/** Claim 2, on the distributions: SRPT-ECF's 90th percentile against SA-ECF's and FCFS's. */
function tail(r: SettingResult): Verdict {
  const p90 = (name: string) => quantile(r.completions.get(name)?.completionMs ?? [], 0.9);
  const [own, rr, fcfs] = [p90("srpt-ecf"), p90("sa-ecf"), p90("lowest-rtt")];
  const shorter = [rr, fcfs].filter((x) => own < x * (1 - TAIL_MARGIN)).length;
  return {
    claim: "SRPT shortens the tail of completion times against round-robin (SA-ECF) and FCFS",
    verdict: [own, rr, fcfs].some((x) => !Number.isFinite(x)) ? "not measured" : shorter === 2 ? "holds" : shorter === 1 ? "holds in part" : "does not hold",
    figures: `p90 completion: SRPT-ECF ${ms(own)}, SA-ECF ${ms(rr)}, FCFS with lowest-RTT ${ms(fcfs)} (shorter: by more than ${TAIL_MARGIN * 100}%)`,
  };
}

function table(r: SettingResult): string[] {
  const lines = ["| scheduler | messages | median | p90 | largest | failed runs |", "|---|---|---|---|---|---|"];
  for (const s of SEED_SCHEDULERS) {
    const c = r.completions.get(s.name)?.completionMs ?? [];
    lines.push(`| ${s.label} | ${c.length} | ${ms(quantile(c, 0.5))} | ${ms(quantile(c, 0.9))} | ${ms(Math.max(...c))} | ${r.completions.get(s.name)?.failed ?? 0} |`);
  }
  return lines;
}

function plots(dir: string, prefix: string, what: string, r: SettingResult): string[] {
  const series = (f: (c: Completions) => [number, number][]) =>
    SEED_SCHEDULERS.map((s) => ({ name: s.label, points: f(r.completions.get(s.name) ?? noCompletions()) }));
  const cdf = `${prefix}-cdf.svg`;
  const active = `${prefix}-active.svg`;
  const paths = SEED_PATHS.map((p) => `${p.rateMbit * 1000} kbit/s ${p.rttMs} ms`).join(" and ");
  writeFileSync(join(dir, cdf), linePlotSvg({ title: `Message completion times, ${what}`, subtitle: paths, xLabel: "completion time (ms after the request)", yLabel: "share of messages", series: series((c) => cdfPoints(c.completionMs)), yMax: 1 }));
  writeFileSync(join(dir, active), linePlotSvg({ title: `Active messages, ${what}`, subtitle: paths, xLabel: "time (ms)", yLabel: "messages requested, not complete", series: series((c) => activeCountPoints(c.intervals)) }));
  return [`![completion CDF, ${what}](${cdf})`, "", `![active messages, ${what}](${active})`];
}

/** Writes OUT/srpt-ecf/README.md and its plots; returns the README's path. */
export function writeSrptEcfReport(out: string, page: PageMessages, alone: SettingResult, load: SettingResult | null, how: string, command: string): string {
  const dir = join(out, "srpt-ecf");
  mkdirSync(dir, { recursive: true });
  const bytes = page.messages.reduce((a, m) => a + m.size, 0);
  const lines = [
    "# SRPT-ECF on a page's requests (seed 000 §4.7, Figs 4.11-4.12)",
    "",
    `Generated by \`${command}\`. Seed 000 scheduled the 132 images of a Wikipedia page over two paths of 1050 kbit/s, 67 ms and 750 kbit/s, 151 ms, each response released when its request was made, and compared SRPT-ECF with SA-ECF (equal weights), FCFS with lowest-RTT and SRPT with lowest-RTT: ECF used the low-latency path to finish small messages sooner than lowest-RTT, and SRPT shortened the tail against round-robin and FCFS.`,
    "",
    `- **Messages:** ${page.messages.length} responses (${page.images} of them images, ${(bytes / 1e6).toFixed(2)} MB) of ${page.origin} on ${page.site}, the origin among the corpus pages given that served the most images, released at their recorded request times.`,
    `- **Messages alone:** seed 000's idealised paths (§4.4.1: each path paced at its rate, no loss, no window), as the seed ran it, with 1,200-byte packets (\`pagepath-sim --messages\`).`,
    `- **Page load:** ${how}; the completion of a message is from its request to its last byte.`,
    "",
  ];
  const settings: [string, string, SettingResult | null][] = [["messages alone", "alone", alone], ["as a page load", "load", load]];
  for (const [title, prefix, r] of settings) {
    lines.push(`## ${title[0]!.toUpperCase()}${title.slice(1)}`, "");
    if (!r) {
      lines.push("Not run.", "");
      continue;
    }
    lines.push(...table(r), "", "| the seed's claim | verdict | ours |", "|---|---|---|");
    for (const v of verdicts(r)) lines.push(`| ${v.claim} | ${v.verdict} | ${v.figures} |`);
    lines.push("", ...plots(dir, prefix, title, r), "");
  }
  if (load) {
    const [a, b] = [verdicts(alone), verdicts(load)];
    const change = a.map((v, i) => (v.verdict === b[i]!.verdict ? null : `"${v.claim}" ${v.verdict} alone and ${b[i]!.verdict} in the page load`)).filter(Boolean);
    const answer = [...a, ...b].some((v) => v.verdict === "not measured")
      ? "Not measured: a setting has no completions to compare (see its table's failed runs)."
      : change.length === 0
        ? "Yes: each claim has the same verdict in both settings."
        : `No: ${change.join("; ")}.`;
    lines.push("## Does the conclusion survive the page's dependencies?", "", answer, "");
  }
  const file = join(dir, "README.md");
  writeFileSync(file, lines.join("\n"));
  return file;
}

/** The setting's result: the completions, and each small message's median completion (by size, the smaller half). */
export function settingResult(page: PageMessages, completions: Map<string, Completions>): SettingResult {
  const sizes = page.messages.map((m) => m.size).sort((a, b) => a - b);
  const limit = sizes[Math.floor((sizes.length - 1) / 2)]!;
  const small = new Set(page.messages.filter((m) => m.size <= limit).map((m) => m.url));
  const medians = (c: Completions) => {
    const byUrl = new Map<string, number[]>();
    c.urls.forEach((url, i) => small.has(url) && byUrl.set(url, [...(byUrl.get(url) ?? []), c.completionMs[i]!]));
    return new Map([...byUrl].map(([url, xs]) => [url, median(xs)]));
  };
  return { completions, small: new Map([...completions].map(([name, c]) => [name, medians(c)])) };
}
