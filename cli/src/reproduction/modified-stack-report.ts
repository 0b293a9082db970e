/**
 * The report of seed 001 §6.5's modified multipath stack: Table 6.1/6.2's columns per grid point,
 * the ladder of Fig 6.24 as CDFs per regime, the equal-or-better heatmaps of Fig 6.22, and a
 * verdict on each figure the thesis's text gives.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { quantile } from "@pagepath/corpus";
import { cdfPoints, heatmapSvg, linePlotSvg, type GridPoint } from "@pagepath/results";
import { BASELINE_STEP, LADDER, MODIFIED_STACK, MODIFIED_STEP, NOT_RUN, SINGLE_PATH, SINGLE_PATH_QUIC, type LadderStep } from "./modified-stack-plans.js";
import type { ModifiedStackResults } from "./modified-stack-runs.js";
import { anovaBetween, EQUAL_MARGIN_MS, findRegime, type Mismatch, type RegimeResult, type StepCell } from "./modified-stack-results.js";

export interface ModifiedStackVerdict {
  claim: string;
  verdict: "holds" | "holds in direction" | "does not hold" | "not measured";
  figures: string;
}

const MISMATCH_TEXT: Record<Mismatch, string> = { rtt: "second path at 5x the RTT (§6.5.1)", bandwidth: "second path at 1/5 of the bandwidth (§6.5.2)" };
const cellOf = (r: RegimeResult | undefined, step: string): StepCell | undefined => r?.steps.find((s) => s.step === step && s.pairs > 0);
const pc = (x: number | null | undefined) => (x === null || x === undefined ? "-" : `${x.toFixed(1)}%`);
const sec = (x: number | null | undefined) => (x === null || x === undefined ? "-" : (x / 1000).toFixed(3));
const pv = (x: number | null) => (x === null ? "-" : x < 0.001 ? "<0.001" : x.toFixed(3));

/** The thesis's figures, each checked at its regime when the grid has it. */
export function modifiedStackVerdicts(regimes: readonly RegimeResult[], overQuic: readonly RegimeResult[] = []): ModifiedStackVerdict[] {
  const out: ModifiedStackVerdict[] = [];
  const at = (m: Mismatch, rate: number, rtt: number) => findRegime(regimes, m, rate, rtt);
  const missing = (claim: string, why: string): ModifiedStackVerdict => ({ claim, verdict: "not measured", figures: why });

  const r50 = at("rtt", 50, 100);
  const [b50, m50] = [cellOf(r50, BASELINE_STEP), cellOf(r50, MODIFIED_STEP)];
  const share = "36% of sites equal or better than TCP with baseline MPTCP at 50 Mbit/s 100 ms, 77.9% with the modified stack (§6.5.1)";
  if (!b50 || !m50) out.push(missing(share, "50 Mbit/s 100 ms with the 5x-RTT path was not run"));
  else {
    const [b, m] = [b50.equalOrBetterPercent!, m50.equalOrBetterPercent!];
    out.push({ claim: share, verdict: m > b ? (b < 50 && m >= 50 ? "holds" : "holds in direction") : "does not hold", figures: `${pc(b)} against ${pc(m)} of ${b50.siteMeanDifferences.length} sites` });
  }
  const worse = "63.9% of sites worse than TCP with MPTCP HTTP/2 RTT at 50 Mbit/s 100 ms (Fig 6.24(c))";
  if (!b50) out.push(missing(worse, "50 Mbit/s 100 ms with the 5x-RTT path was not run"));
  else {
    const w = 100 - b50.equalOrBetterPercent!;
    out.push({ claim: worse, verdict: w > 50 ? "holds" : w > 0 ? "holds in direction" : "does not hold", figures: `${pc(w)} worse by more than ${EQUAL_MARGIN_MS} ms` });
  }
  const quic = (m: Mismatch, rate: number, rtt: number) => cellOf(findRegime(overQuic, m, rate, rtt), MODIFIED_STEP);
  out.push(tableClaim(at("rtt", 10, 40), quic("rtt", 10, 40), "Table 6.1 at 10 Mbit/s 40 ms: the modified stack improves mean PLT by 12.3%, baseline MPTCP by 9.6%", "rtt"));
  out.push(tableClaim(r50, quic("rtt", 50, 100), "Table 6.1 at 50 Mbit/s 100 ms: the modified stack +0.4%, baseline MPTCP -2.4% (slower than TCP)", "rtt"));
  out.push(tableClaim(at("bandwidth", 10, 40), quic("bandwidth", 10, 40), "Table 6.2 at 10 Mbit/s 40 ms: the modified stack improves mean PLT by 8.6%, baseline MPTCP by 1.2%", "bandwidth"));
  out.push(ladderClaim(r50));
  return out;
}

/** The modified stack's improvement is larger than the baseline's, significantly (ANOVA p < 0.05) to hold. */
function tableClaim(r: RegimeResult | undefined, overQuic: StepCell | undefined, claim: string, m: Mismatch): ModifiedStackVerdict {
  const [b, mod] = [cellOf(r, BASELINE_STEP), cellOf(r, MODIFIED_STEP)];
  if (!r || !b || !mod) return { claim, verdict: "not measured", figures: `that grid point with the ${MISMATCH_TEXT[m]} was not run` };
  const p = anovaBetween(r, BASELINE_STEP, MODIFIED_STEP);
  const better = mod.improvementPercent! > b.improvementPercent!;
  const verdict = better ? (p !== null && p < 0.05 ? "holds" : "holds in direction") : "does not hold";
  const handshake = overQuic ? `; the modified stack over single-path QUIC ${pc(overQuic.improvementPercent)}` : "";
  return { claim, verdict, figures: `modified ${pc(mod.improvementPercent)}, baseline ${pc(b.improvementPercent)}, ANOVA p ${pv(p)} (${mod.pairs} and ${b.pairs} site-runs)${handshake}` };
}

/** Fig 6.24(c): each step of the ladder lowers the mean PLT, or at least does not raise it. */
function ladderClaim(r: RegimeResult | undefined): ModifiedStackVerdict {
  const claim = "At 50 Mbit/s 100 ms each step of the ladder (MPTCP HTTP/2 RTT, MP QUIC RTT, + Preempt, + Stream Scheduler) lowers PLT (Fig 6.24(c))";
  const order = [BASELINE_STEP, "mpquic-rtt", "mpquic-rtt-preempt", MODIFIED_STEP].map((s) => cellOf(r, s));
  if (order.some((c) => !c)) return { claim, verdict: "not measured", figures: "a step of the ladder has no runs at 50 Mbit/s 100 ms with the 5x-RTT path" };
  const means = order.map((c) => c!.meanMs!);
  // A step that saves less than the margin is no step back either.
  const steps = means.slice(1).map((m, i) => m - means[i]!);
  const verdict = steps.every((d) => d >= -EQUAL_MARGIN_MS) ? (steps.every((d) => d > 0) ? "holds" : "holds in direction") : "does not hold";
  return { claim, verdict, figures: `mean PLT_TCP - PLT_step: ${means.map((m) => `${Math.round(m)} ms`).join(" → ")}` };
}

function table(regimes: readonly RegimeResult[], m: Mismatch): string[] {
  const rows = regimes.filter((r) => r.mismatch === m);
  if (rows.length === 0) return [];
  const lines = [
    `| rate | RTT | PLT_TCP (s) | modified x̄ (s) | σ | % Imp. | equal or better | baseline x̄ (s) | σ | % Imp. | equal or better | p-value |`,
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const [mod, b] = [cellOf(r, MODIFIED_STEP), cellOf(r, BASELINE_STEP)];
    lines.push(`| ${r.point.bandwidthMbps} Mbit/s | ${r.point.rttMs} ms | ${sec((mod ?? b)?.meanTcpMs)} | ${sec(mod?.meanMs)} | ${sec(mod?.sdMs)} | ${pc(mod?.improvementPercent)} | ${pc(mod?.equalOrBetterPercent)} | ${sec(b?.meanMs)} | ${sec(b?.sdMs)} | ${pc(b?.improvementPercent)} | ${pc(b?.equalOrBetterPercent)} | ${pv(anovaBetween(r, BASELINE_STEP, MODIFIED_STEP))} |`);
  }
  return lines;
}

function ladderTable(regimes: readonly RegimeResult[], steps: LadderStep[]): string[] {
  const lines = [`| mismatch | rate | RTT | ${steps.map((s) => s.label).join(" | ")} |`, `|---|---|---|${"---|".repeat(steps.length)}`];
  for (const r of regimes) {
    const cells = steps.map((s) => {
      const c = cellOf(r, s.name);
      return c ? `${pc(c.improvementPercent)} / ${pc(c.equalOrBetterPercent)}` : "-";
    });
    lines.push(`| ${r.mismatch} | ${r.point.bandwidthMbps} Mbit/s | ${r.point.rttMs} ms | ${cells.join(" | ")} |`);
  }
  return lines;
}

/**
 * Fig 6.5's measure, each site's standard deviation of PLT over its runs, per regime: the noise the
 * thesis's 20 ms margin and its 50 runs were chosen against. Nothing when every site ran once.
 */
function runToRunSpread(dir: string, regimes: readonly RegimeResult[]): string[] {
  const rows = regimes.flatMap((r) => {
    const [b, mod] = [cellOf(r, BASELINE_STEP), cellOf(r, MODIFIED_STEP)];
    const tcp = (mod ?? b)?.tcpSiteRunSdMs ?? [];
    return tcp.length === 0 ? [] : [{ r, tcp, b: b?.siteRunSdMs ?? [], mod: mod?.siteRunSdMs ?? [], runs: Math.round(((mod ?? b)!.pairs) / ((mod ?? b)!.siteMeanDifferences.length || 1)) }];
  });
  if (rows.length === 0) return [];
  const ms = (xs: number[], q: number) => (xs.length ? `${Math.round(quantile(xs, q))}` : "-");
  const over = (xs: number[]) => (xs.length ? pc((100 * xs.filter((x) => x > EQUAL_MARGIN_MS).length) / xs.length) : "-");
  const lines = [
    "## Run-to-run spread (the measure of Fig 6.5)",
    "",
    `Each site's sample standard deviation of PLT over its runs, ms, median / p90 across sites, and the share of sites whose spread exceeds the ${EQUAL_MARGIN_MS} ms margin that "equal or better" allows (the thesis: "20ms is well within the PLT standard deviations across the 50 runs").`,
    "",
    `| mismatch | rate | RTT | runs a site | ${SINGLE_PATH.label} | over ${EQUAL_MARGIN_MS} ms | baseline | over ${EQUAL_MARGIN_MS} ms | modified | over ${EQUAL_MARGIN_MS} ms |`,
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const { r, tcp, b, mod, runs } of rows) {
    lines.push(`| ${r.mismatch} | ${r.point.bandwidthMbps} Mbit/s | ${r.point.rttMs} ms | ${runs} | ${ms(tcp, 0.5)} / ${ms(tcp, 0.9)} | ${over(tcp)} | ${ms(b, 0.5)} / ${ms(b, 0.9)} | ${over(b)} | ${ms(mod, 0.5)} / ${ms(mod, 0.9)} | ${over(mod)} |`);
  }
  lines.push("");
  for (const { r, tcp, b, mod } of rows) {
    const file = `run-to-run-${r.mismatch}-${r.point.bandwidthMbps}mbit-${r.point.rttMs}ms.svg`;
    const series = [
      { name: SINGLE_PATH.label, points: cdfPoints(tcp) },
      { name: "baseline", points: cdfPoints(b) },
      { name: "modified", points: cdfPoints(mod) },
    ].filter((x) => x.points.length > 0);
    writeFileSync(join(dir, file), linePlotSvg({
      title: "Each site's standard deviation of PLT over its runs (Fig 6.5)",
      subtitle: `${r.point.bandwidthMbps} Mbit/s, ${r.point.rttMs} ms, ${MISMATCH_TEXT[r.mismatch]}`,
      xLabel: "standard deviation of PLT over the runs (ms)", yLabel: "share of sites", yMax: 1, xMin: 0,
      series,
    }));
    lines.push(`![run-to-run spread at ${r.point.bandwidthMbps} Mbit/s ${r.point.rttMs} ms, ${r.mismatch} mismatch](${file})`);
  }
  return [...lines, ""];
}

function plots(dir: string, regimes: readonly RegimeResult[], steps: LadderStep[]): string[] {
  const lines: string[] = [];
  for (const r of regimes) {
    const file = `ladder-${r.mismatch}-${r.point.bandwidthMbps}mbit-${r.point.rttMs}ms.svg`;
    const series = steps.flatMap((s) => {
      const c = cellOf(r, s.name);
      return c ? [{ name: s.label, points: cdfPoints(c.siteMeanDifferences.map((d) => d / 1000)) }] : [];
    });
    const xs = series.flatMap((s) => s.points.map(([x]) => x));
    writeFileSync(join(dir, file), linePlotSvg({
      title: `Mean PLT of each step minus single-path TCP's (Fig 6.24)`,
      subtitle: `${r.point.bandwidthMbps} Mbit/s, ${r.point.rttMs} ms, ${MISMATCH_TEXT[r.mismatch]}; right of 0 is slower than TCP`,
      xLabel: "PLT_step - PLT_TCP, per site (s)", yLabel: "share of sites", yMax: 1, xMin: Math.min(0, ...xs),
      series,
    }));
    lines.push(`![ladder at ${r.point.bandwidthMbps} Mbit/s ${r.point.rttMs} ms, ${r.mismatch} mismatch](${file})`);
  }
  for (const m of ["rtt", "bandwidth"] as const) {
    const rows = regimes.filter((r) => r.mismatch === m);
    if (rows.length === 0) continue;
    for (const step of [BASELINE_STEP, MODIFIED_STEP]) {
      const file = `equal-or-better-${m}-${step}.svg`;
      const label = [...LADDER].find((s) => s.name === step)!.label;
      writeFileSync(join(dir, file), heatmapSvg({
        title: `Sites equal or better than single-path TCP (Fig 6.22)`, subtitle: `${label}, ${MISMATCH_TEXT[m]}`,
        note: `share of sites whose mean PLT is within ${EQUAL_MARGIN_MS} ms of TCP's or below`,
        points: rows.map((r) => r.point),
        cell: (p: GridPoint) => {
          const c = cellOf(rows.find((r) => r.point.bandwidthMbps === p.bandwidthMbps && r.point.rttMs === p.rttMs), step);
          return { value: c?.equalOrBetterPercent ?? null, text: pc(c?.equalOrBetterPercent), detail: `${c?.siteMeanDifferences.length ?? 0} sites` };
        },
        centre: 50, extent: 50, unit: "%",
      }));
      lines.push(`![equal or better, ${label}, ${m} mismatch](${file})`);
    }
  }
  return lines;
}

/** Writes OUT/modified-stack/README.md and its plots; returns the README's path. */
export function writeModifiedStackReport(out: string, results: ModifiedStackResults, how: string, command: string): string {
  const { regimes, steps, overQuic } = results;
  const quicSteps = steps.filter((s) => s.transport === "mpquic");
  const dir = join(out, MODIFIED_STACK);
  mkdirSync(dir, { recursive: true });
  const lines = [
    "# The thesis's modified multipath stack (seed 001 §6.5, Figs 6.22 and 6.24, Tables 6.1-6.2)",
    "",
    `Generated by \`${command}\`. The thesis added to a research MPTCP in ns-3, one at a time, QUIC-like out-of-order delivery, preemption in the transmit buffer, its HTTP-aware Stream Scheduler, retransmission on the other subflow, uncoupled congestion control and tail loss probes, and measured each step's page load times against single-path TCP on the better path over 300 sites and 50 runs. Its text gives: at 50 Mbit/s 100 ms with a 5x-RTT second path, 36% of sites equal or better with baseline MPTCP against 77.9% modified, 63.9% worse with MPTCP HTTP/2 RTT; Table 6.1's mean improvement at 10 Mbit/s 40 ms 12.3% modified against 9.6% baseline, at 50 Mbit/s 100 ms 0.4% against -2.4%; Table 6.2's (1/5 bandwidth) at 10 Mbit/s 40 ms 8.6% against 1.2%.`,
    "",
    `- **Here:** ${how}.`,
    `- **Steps run** (each against ${SINGLE_PATH.label}): ${steps.map((s) => `${s.label} (\`${s.transport}\`, ${s.protocol === "h3" ? "HTTP/3" : "HTTP/2"}${s.scheduler ? `, ${s.scheduler.name}` : s.transport === "mptcp" ? ", the kernel's default scheduler" : ""}${s.preemption ? ", preemption" : ""}${s.transport === "mptcp" ? (s.coupled && how.includes("simulator") ? ", LIA" : ", uncoupled Reno") : ""}${s.transport === "mptcp" ? (s.tailLossProbes ? ", TLP" : ", no TLP") : ""})`).join("; ")}. TCP and MPTCP run Reno, as the thesis's New Reno; QUIC runs tquic's CUBIC (tquic has no Reno).`,
    "- **Steps that are no configuration here:**",
    ...NOT_RUN.map((n) => `  - *${n.label}*: ${n.why}.`),
    `- **Statistics:** per grid point, x̄ is the mean of PLT_TCP - PLT_step over (site, run) pairs and σ its sample standard deviation, % Imp. is Σ(PLT_TCP - PLT_step) / ΣPLT_TCP, "equal or better" is the share of sites whose mean PLT is at most TCP's + ${EQUAL_MARGIN_MS} ms, and the p-value is one-way ANOVA between the modified stack's and the baseline's differences, as Table 6.1 gives them.`,
    "",
    "| the thesis's figure | verdict | ours |",
    "|---|---|---|",
    ...modifiedStackVerdicts(regimes, overQuic).map((v) => `| ${v.claim} | ${v.verdict} | ${v.figures} |`),
    "",
    "## Table 6.1: second path at 5x the RTT (modified = MP QUIC Stream, baseline = MPTCP HTTP/2 RTT)",
    "",
    ...table(regimes, "rtt"),
    "",
    "## Table 6.2: second path at 1/5 of the bandwidth",
    "",
    ...table(regimes, "bandwidth"),
    "",
    "## The ladder (Fig 6.24), per step against single-path TCP",
    "",
    "Each cell: % Imp. of mean PLT / share of sites equal or better.",
    "",
    ...ladderTable(regimes, steps),
    "",
    `## The multipath QUIC steps against ${SINGLE_PATH_QUIC.label}`,
    "",
    "The thesis's MP QUIC was QUIC-lite over its MPTCP, with TCP's handshake. tquic's takes one round trip fewer than TCP's and TLS 1.3's, so against single-path TCP the QUIC steps gain that round trip whether or not the second path helps; against single-path QUIC only the second path and the scheduler remain. Each cell: % Imp. / share of sites equal or better.",
    "",
    ...ladderTable(overQuic, quicSteps),
    "",
    ...runToRunSpread(dir, regimes),
    ...plots(dir, regimes, steps),
    "",
  ];
  const file = join(dir, "README.md");
  writeFileSync(file, lines.join("\n"));
  return file;
}
