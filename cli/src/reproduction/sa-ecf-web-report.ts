/**
 * The report of seed 004's web-traffic experiment (§6.2.2, Table 6.8, Fig 6.11; Tables 6.6-6.7 for
 * the per-class rates and path shares): completion-time CDFs per scheduler, a table per scheduler
 * and class, effect sizes with bootstrap confidence intervals, and a verdict on each claim.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bootstrapDifference, cdfPoints, linePlotSvg, type Difference } from "@pagepath/results";
import { TABLE_6_8, WEB_PATHS, WEB_SCHEDULERS, type WebRun } from "./sa-ecf-web-runs.js";
import { mean, median } from "./report-statistics.js";

export interface Verdict {
  claim: string;
  verdict: "holds" | "no significant difference" | "does not hold" | "not measured";
  figures: string;
}

const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "-");
const ok = (runs: WebRun[], scheduler: string) => runs.filter((r) => r.scheduler === scheduler && r.streams !== null);

/** Per ok run of the scheduler, when its last stream completed: the page's five files all in. */
export function pageCompletions(runs: WebRun[], scheduler: string): number[] {
  return ok(runs, scheduler).map((r) => Math.max(...r.streams!.map((s) => s.completionMs)));
}

function classCompletions(runs: WebRun[], scheduler: string, className: string): number[] {
  return ok(runs, scheduler).flatMap((r) => r.streams!.filter((s) => s.className === className).map((s) => s.completionMs));
}

const interval = (d: Difference | null, base: number) =>
  d ? `${d.estimate >= 0 ? "+" : ""}${d.estimate.toFixed(0)} ms (${((100 * d.estimate) / base).toFixed(1)}%), ${100 * d.level}% CI [${d.low.toFixed(0)}, ${d.high.toFixed(0)}]` : "-";

/** Candidate against baseline on the page's completion: a shorter mean with its interval below 0 holds. */
function compare(runs: WebRun[], baseline: string, candidate: string, claim: string): Verdict {
  const [b, c] = [pageCompletions(runs, baseline), pageCompletions(runs, candidate)];
  const d = bootstrapDifference(b, c);
  const verdict = !d ? "not measured" : d.high < 0 ? "holds" : d.low > 0 ? "does not hold" : "no significant difference";
  return { claim, verdict, figures: `page completion, mean ${ms(mean(c))} against ${ms(mean(b))}: ${interval(d, mean(b))} (${c.length} and ${b.length} runs)` };
}

export function verdicts(runs: WebRun[]): Verdict[] {
  const [low, sa, adapted] = WEB_SCHEDULERS.map((s) => s.name) as [string, string, string];
  return [
    compare(runs, low, sa, "SA-ECF improves (modestly) on LowRTT"),
    compare(runs, sa, adapted, "the adapted SA-ECF, which insists on the faster path, is significantly faster than SA-ECF"),
    compare(runs, low, adapted, "the adapted SA-ECF is faster than LowRTT"),
  ];
}

function table(runs: WebRun[]): string[] {
  const lines = [
    `| scheduler | class | file | weight | median completion | mean completion | mean against LowRTT | rate while active (median) | bytes on path 1 / path 2 |`,
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const s of WEB_SCHEDULERS) {
    for (const c of TABLE_6_8) {
      const times = classCompletions(runs, s.name, c.name);
      const streams = ok(runs, s.name).flatMap((r) => r.streams!.filter((x) => x.className === c.name));
      const bytes = WEB_PATHS.map((_, p) => streams.reduce((a, x) => a + (x.pathBytes[p] ?? 0), 0));
      const total = bytes.reduce((a, b) => a + b, 0);
      const shares = total > 0 ? bytes.map((b) => `${((100 * b) / total).toFixed(1)}%`).join(" / ") : "-";
      const rates = streams.flatMap((x) => (x.rateMbps === null ? [] : [x.rateMbps]));
      const base = classCompletions(runs, WEB_SCHEDULERS[0]!.name, c.name);
      const against = s === WEB_SCHEDULERS[0] ? "" : interval(bootstrapDifference(base, times), mean(base));
      lines.push(`| ${s.label} | ${c.name} | ${c.file} (${c.bytes / 1000} kB) | ${c.weight} | ${ms(median(times))} | ${ms(mean(times))} | ${against} | ${rates.length ? `${median(rates).toFixed(2)} Mbit/s` : "-"} | ${shares} |`);
    }
  }
  return lines;
}

function plots(dir: string, runs: WebRun[]): string[] {
  const paths = WEB_PATHS.map((p) => `${p.rateMbit} Mbit/s ${p.rttMs} ms`).join(" and ");
  const streams = "streams-cdf.svg";
  const page = "page-cdf.svg";
  writeFileSync(join(dir, streams), linePlotSvg({
    title: "Stream completion times (seed 004 Fig 6.11)", subtitle: `five streams of Table 6.8 over ${paths}`, xLabel: "completion time (ms after the request)", yLabel: "share of streams", yMax: 1,
    series: WEB_SCHEDULERS.map((s) => ({ name: s.label, points: cdfPoints(ok(runs, s.name).flatMap((r) => r.streams!.map((x) => x.completionMs))) })),
  }));
  writeFileSync(join(dir, page), linePlotSvg({
    title: "Page completion: the last of the five streams", subtitle: paths, xLabel: "completion time (ms after the requests)", yLabel: "share of runs", yMax: 1,
    series: WEB_SCHEDULERS.map((s) => ({ name: s.label, points: cdfPoints(pageCompletions(runs, s.name)) })),
  }));
  return [`![stream completion CDF](${streams})`, "", `![page completion CDF](${page})`];
}

/** Writes OUT/sa-ecf-web/README.md and its plots; returns the README's path. */
export function writeSaEcfWebReport(out: string, runs: WebRun[], command: string, client: "emulated" | "simulated" = "emulated"): string {
  const dir = join(out, "sa-ecf-web");
  mkdirSync(dir, { recursive: true });
  const failed = runs.filter((r) => r.streams === null);
  const perScheduler = WEB_SCHEDULERS.map((s) => `${s.label} ${ok(runs, s.name).length}`).join(", ");
  const lines = [
    "# SA-ECF on a web-like workload (seed 004 §6.2.2, Table 6.8, Fig 6.11)",
    "",
    `Generated by \`${command}\`. Seed 004 served five files of a web page's kinds (Table 6.8: index.html 60 kB, style.css 40 kB, script.js 100 kB, image.png 1 MB, video.mp4 3.8 MB, weighted 4000, 600, 2400, 1000 and 2000) over five HTTP/3 streams of one multipath QUIC connection (quiche) under its hierarchical fair stream scheduler, over heterogeneous paths, 100 runs per scheduler: SA-ECF improved modestly on LowRTT, and the adapted SA-ECF, which waits for the faster path more readily, did significantly better than both.`,
    "",
    `- **Here:** tquic's multipath QUIC with pagepath's schedulers on the replay server (\`fair\` with lowest-RTT paths, \`sa-ecf-ported\`, \`sa-ecf-adapted\`, each given Table 6.8's weights by urgency), ${client === "simulated" ? "in virtual time (pagepath-sim's fetch mode: the five files requested at once, as pagepath-fetch requests them, over the simulator's model of the paths; each run's links seeded apart, but they drop nothing and delay exactly, so runs differ little)" : "pagepath-fetch requesting the five files at once"}, over ${WEB_PATHS.map((p) => `${p.rateMbit} Mbit/s ${p.rttMs} ms`).join(" and ")} (the first opens the connection), drop-tail queues of one bandwidth-delay product (at least 16 packets), the schedulers in turns; ok runs: ${perScheduler}${failed.length ? `; failed: ${failed.length} (${[...new Set(failed.map((f) => f.error))].join("; ")})` : ""}.`,
    "- **Completion:** from the request to the last byte at the client. Effect sizes are differences of means with 95% percentile-bootstrap intervals (2,000 resamples). Rates and path shares are the server's: the STREAM bytes it sent per path (retransmissions included) and the stream's sending time, as Tables 6.6-6.7 give them.",
    "",
    "| the seed's claim | verdict | ours |",
    "|---|---|---|",
    ...verdicts(runs).map((v) => `| ${v.claim} | ${v.verdict} | ${v.figures} |`),
    "",
    ...table(runs),
    "",
    ...plots(dir, runs),
    "",
  ];
  const file = join(dir, "README.md");
  writeFileSync(file, lines.join("\n"));
  return file;
}
