/**
 * The report of seed 003's large-file experiment (§5.2.3, Figs 5.5-5.10): per class, the ratio of
 * completion times (TCP over QUIC, single path and multipath), the experimental aggregation benefit
 * (Eq. 5.1) of MPTCP and multipath QUIC with the best or the worst path first, the share of bytes
 * the initial path carried, and a verdict on each of the seed's checkable claims.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cdfPoints, experimentalAggregationBenefit, linePlotSvg, wilcoxonSignedRank, type Transport } from "@pagepath/results";
import { cellKey, FILE_BYTES, type CellResult } from "./mpquic-vs-mptcp-runs.js";
import { SCENARIO_CLASSES, type Scenario } from "./mpquic-vs-mptcp-scenarios.js";
import { median } from "./report-statistics.js";

/** One multipath experiment: a scenario with one of its paths first. */
interface Experiment {
  scenario: string;
  bestFirst: Record<"mptcp" | "mpquic", boolean>;
  /** MPTCP's completion time over multipath QUIC's. */
  ratio: number;
  eab: Record<"mptcp" | "mpquic", number>;
  firstPathShare: Record<"mptcp" | "mpquic", number | null>;
}

export interface ClassResult {
  className: string;
  scenarios: number;
  /** Scenarios left out because a cell has no finished run. */
  incomplete: string[];
  /** TCP's completion over QUIC's on each path alone. */
  singleRatios: number[];
  experiments: Experiment[];
}

export interface Verdict {
  claim: string;
  verdict: "holds" | "holds in part" | "holds in direction" | "does not hold" | "no significant difference" | "not measured";
  figures: string;
}

const goodput = (ms: number) => (FILE_BYTES * 8) / (ms * 1000);

/** Per class, the experiments whose eight cells all finished. */
export function classResults(all: Scenario[], cells: Map<string, CellResult>): ClassResult[] {
  return SCENARIO_CLASSES.map((c) => {
    const mine = all.filter((s) => s.className === c.name);
    const result: ClassResult = { className: c.name, scenarios: mine.length, incomplete: [], singleRatios: [], experiments: [] };
    for (const s of mine) {
      const [a, b] = [`${s.name}-a`, `${s.name}-b`];
      const cell = (network: string, t: Transport) => cells.get(cellKey(network, t));
      const needed = [a, b].flatMap((n) => (["tcp", "mptcp", "quic", "mpquic"] as const).map((t) => cell(n, t)));
      if (needed.some((x) => x === undefined)) {
        result.incomplete.push(s.name);
        continue;
      }
      // Single-path transports use the network's first path: `-a` measures path 1 alone, `-b` path 2.
      const single = (t: "tcp" | "quic") => [goodput(cell(a, t)!.ms), goodput(cell(b, t)!.ms)];
      const [tcp, quic] = [single("tcp"), single("quic")];
      result.singleRatios.push(cell(a, "tcp")!.ms / cell(a, "quic")!.ms, cell(b, "tcp")!.ms / cell(b, "quic")!.ms);
      for (const [first, network] of [[0, a], [1, b]] as const) {
        const [mptcp, mpquic] = [cell(network, "mptcp")!, cell(network, "mpquic")!];
        result.experiments.push({
          scenario: network,
          bestFirst: { mptcp: tcp[first]! >= tcp[1 - first]!, mpquic: quic[first]! >= quic[1 - first]! },
          ratio: mptcp.ms / mpquic.ms,
          eab: { mptcp: experimentalAggregationBenefit(goodput(mptcp.ms), tcp) ?? 0, mpquic: experimentalAggregationBenefit(goodput(mpquic.ms), quic) ?? 0 },
          firstPathShare: { mptcp: mptcp.firstPathShare, mpquic: mpquic.firstPathShare },
        });
      }
    }
    return result;
  });
}

const share = (xs: boolean[]) => (xs.length === 0 ? NaN : xs.filter(Boolean).length / xs.length);
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "-");
const num = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "-");
const p = (x: number | undefined) => (x === undefined ? "-" : x.toPrecision(2));

/** A share this many points below the seed's still holds: the seed's own 253 scenarios put about ±4 points on it. */
const SHARE_MARGIN = 0.1;
/** Completion ratios this close to 1 are "similar performance". */
const SIMILAR = 0.1;

export function verdicts(results: ClassResult[]): Verdict[] {
  const of = (name: string) => results.find((r) => r.className === name)!;
  return [similarLowBdp(of("low-bdp-no-loss")), benefitLowBdp(of("low-bdp-no-loss")), lossesLowBdp(of("low-bdp-losses")), fasterHighBdp(of("high-bdp-no-loss"))];
}

function similarLowBdp(r: ClassResult): Verdict {
  const m = median(r.experiments.map((e) => e.ratio));
  return {
    claim: "Low-BDP, no loss (Fig 5.5): multipath QUIC and MPTCP perform alike (median completion ratio MPTCP / multipath QUIC about 1)",
    verdict: r.experiments.length === 0 ? "not measured" : Math.abs(m - 1) <= SIMILAR ? "holds" : "does not hold",
    figures: `median ratio ${num(m)} over ${r.experiments.length} experiments (alike: within ${SIMILAR * 100}% of 1)`,
  };
}

function benefitLowBdp(r: ClassResult): Verdict {
  const [tcp, quic] = [share(r.experiments.map((e) => e.eab.mptcp > 0)), share(r.experiments.map((e) => e.eab.mpquic > 0))];
  const held = [tcp >= 0.91 - SHARE_MARGIN, quic >= 0.885 - SHARE_MARGIN].filter(Boolean).length;
  return {
    claim: "Low-BDP, no loss (Fig 5.6): multipath helps both, EABen > 0 in 91% (MPTCP) and 88.5% (multipath QUIC) of experiments",
    verdict: r.experiments.length === 0 ? "not measured" : held === 2 ? "holds" : held === 1 ? "holds in part" : tcp > 0.5 && quic > 0.5 ? "holds in direction" : "does not hold",
    figures: `EABen > 0 in ${pct(tcp)} (MPTCP) and ${pct(quic)} (multipath QUIC) of ${r.experiments.length} (holds: within ${SHARE_MARGIN * 100} points of the seed's or above)`,
  };
}

function lossesLowBdp(r: ClassResult): Verdict {
  const [tcp, quic] = [share(r.experiments.map((e) => e.eab.mptcp > 0)), share(r.experiments.map((e) => e.eab.mpquic > 0))];
  const test = wilcoxonSignedRank(r.experiments.map((e) => e.eab.mpquic - e.eab.mptcp));
  const verdict = r.experiments.length === 0 ? "not measured" : !test || test.pValue >= 0.05 ? "no significant difference" : test.z > 0 && quic > tcp ? "holds" : "does not hold";
  return {
    claim: "Low-BDP, random losses (Fig 5.8): multipath QUIC beats the best single path far more often than MPTCP (63% against 29%)",
    verdict,
    figures: `faster than the best single path in ${pct(tcp)} (MPTCP) and ${pct(quic)} (multipath QUIC) of ${r.experiments.length}; paired EABen difference, Wilcoxon p = ${p(test?.pValue)}`,
  };
}

function fasterHighBdp(r: ClassResult): Verdict {
  const faster = share(r.experiments.map((e) => e.ratio > 1));
  const m = median(r.experiments.map((e) => e.ratio));
  const test = wilcoxonSignedRank(r.experiments.map((e) => Math.log(e.ratio)));
  const verdict = r.experiments.length === 0 ? "not measured" : !test || test.pValue >= 0.05 ? "no significant difference" : test.z < 0 ? "does not hold" : faster >= 0.9 - SHARE_MARGIN ? "holds" : "holds in direction";
  return {
    claim: "High-BDP, no loss (Fig 5.9): multipath QUIC is faster than MPTCP in 90% of experiments, median ratio 1.175",
    verdict,
    figures: `multipath QUIC faster in ${pct(faster)} of ${r.experiments.length}, median ratio ${num(m)}; Wilcoxon on log ratios p = ${p(test?.pValue)}`,
  };
}

function table(results: ClassResult[]): string[] {
  const lines = [
    "| class | scenarios (incomplete) | experiments | TCP / QUIC alone, median | MPTCP / multipath QUIC, median | multipath QUIC faster | EABen > 0, MPTCP: best / worst first | EABen > 0, multipath QUIC: best / worst first | initial path's byte share, MPTCP / multipath QUIC |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    const e = r.experiments;
    const benefit = (t: "mptcp" | "mpquic", best: boolean) => pct(share(e.filter((x) => x.bestFirst[t] === best).map((x) => x.eab[t] > 0)));
    const firstShare = (t: "mptcp" | "mpquic") => pct(median(e.flatMap((x) => (x.firstPathShare[t] === null ? [] : [x.firstPathShare[t]!]))));
    lines.push(
      `| ${r.className} | ${r.scenarios} (${r.incomplete.length}) | ${e.length} | ${num(median(r.singleRatios))} | ${num(median(e.map((x) => x.ratio)))} | ${pct(share(e.map((x) => x.ratio > 1)))} | ${benefit("mptcp", true)} / ${benefit("mptcp", false)} | ${benefit("mpquic", true)} / ${benefit("mpquic", false)} | ${firstShare("mptcp")} / ${firstShare("mpquic")} |`,
    );
  }
  return lines;
}

function plots(dir: string, r: ClassResult): string[] {
  const e = r.experiments;
  const ratio = `${r.className}-ratio.svg`;
  const eab = `${r.className}-eaben.svg`;
  writeFileSync(join(dir, ratio), linePlotSvg({
    title: `Completion time ratio, ${r.className}`, subtitle: "TCP over QUIC: above 1, QUIC was faster (seed 003 Figs 5.5, 5.7, 5.9)", xLabel: "completion time ratio", yLabel: "share of experiments", yMax: 1,
    series: [{ name: "single path (TCP / QUIC)", points: cdfPoints(r.singleRatios) }, { name: "multipath (MPTCP / MPQUIC)", points: cdfPoints(e.map((x) => x.ratio)) }],
  }));
  const series = (t: "mptcp" | "mpquic", best: boolean) => ({ name: `${t === "mptcp" ? "MPTCP" : "multipath QUIC"}, ${best ? "best" : "worst"} path first`, points: cdfPoints(e.filter((x) => x.bestFirst[t] === best).map((x) => x.eab[t])) });
  writeFileSync(join(dir, eab), linePlotSvg({
    title: `Experimental aggregation benefit, ${r.className}`, subtitle: "Eq. 5.1: 0 = the best path alone, 1 = the sum of both (seed 003 Figs 5.6, 5.8, 5.10)", xLabel: "EABen", yLabel: "share of experiments", yMax: 1, xMin: -1,
    series: [series("mptcp", true), series("mptcp", false), series("mpquic", true), series("mpquic", false)],
  }));
  return [`![completion time ratio, ${r.className}](${ratio})`, "", `![aggregation benefit, ${r.className}](${eab})`, ""];
}

/** Writes OUT/mpquic-vs-mptcp/README.md and its plots; returns the README's path. */
export function writeMpquicVsMptcpReport(out: string, results: ClassResult[], how: string, command: string): string {
  const dir = join(out, "mpquic-vs-mptcp");
  mkdirSync(dir, { recursive: true });
  const lines = [
    "# Multipath QUIC against MPTCP on a large download (seed 003 §5.2.3, Eq. 5.1, Figs 5.5-5.10)",
    "",
    `Generated by \`${command}\`. Seed 003 downloaded a 20 MB file over two paths drawn by WSP from Table 5.1 (capacity 1-50 Mbit/s, RTT 0-50 ms and queuing delay 0-100 ms for low bandwidth-delay products, 0-400 ms and 0-2 s for high ones, random loss 0 or up to 2.5%), 253 scenarios per class, each path first in turn, the median of 9 runs, with (multipath) gQUIC in quic-go against Linux 4.1's MPTCP v0.91, OLIA for both multipath protocols and CUBIC for single-path ones.`,
    "",
    `- **Here:** ${how}.`,
    "- **Where the stacks differ from the seed's:** the kernel's MPTCP (upstream Linux, its default scheduler, uncoupled CUBIC on each subflow) and tquic's multipath QUIC (draft-ietf-quic-multipath, lowest-RTT, uncoupled CUBIC), both over TLS 1.3; the seed's multipath protocols used OLIA, its TCP TLS 1.2 and its QUIC Google's QUIC crypto. The bytes are HTTP/2 over TCP and MPTCP and HTTP/3 over QUIC, one stream either way.",
    "- **Completion time:** the emulated browser's load time of the file, from the first packet of the connection to the file's last byte, as the seed measured it. EABen per Eq. 5.1 from the goodputs 20 MB / completion time, single-path goodputs measured on each path alone; \"best path first\" means the path with the higher single-path goodput opened the connection.",
    "",
    ...table(results),
    "",
    "| the seed's claim | verdict | ours |",
    "|---|---|---|",
    ...verdicts(results).map((v) => `| ${v.claim} | ${v.verdict} | ${v.figures} |`),
    "",
  ];
  for (const r of results) {
    lines.push(`## ${r.className}`, "");
    if (r.incomplete.length > 0) lines.push(`Left out, a run not finished: ${r.incomplete.join(", ")}.`, "");
    lines.push(...plots(dir, r));
  }
  const file = join(dir, "README.md");
  writeFileSync(file, lines.join("\n"));
  return file;
}
