import type { MeasureId, Statistic } from "./summary.js";

/**
 * The numbers seed 001 §4.2 states about its 300 top Alexa sites, to hold a corpus against. Only
 * what the text says in words: the figures themselves are not in the seed, so nothing is read off
 * a curve. `approximate` marks the values the text hedges ("about", "nearly", "approximately").
 * `relation` is how the text bounds the statistic: "≈" about equal, "≤" at most, "<" below.
 */
export interface ThesisValue {
  measure: MeasureId;
  series: string;
  statistic: Statistic;
  relation: "≈" | "≤" | "<";
  value: number;
  figure: string;
  approximate: boolean;
}

// The text writes KB and MB without saying which; decimal units are taken (binary differ by 2-5%).
const KB = 1000;
const MB = 1000 * KB;

export const THESIS: readonly ThesisValue[] = [
  // "The median resource size is about 6KB,"
  { measure: "resource-size", series: "all", statistic: "median", relation: "≈", value: 6 * KB, figure: "Fig 4.1(a)", approximate: true },
  // "and nearly 90% of the resources have a size less than 80 KB."
  { measure: "resource-size", series: "all", statistic: "p90", relation: "<", value: 80 * KB, figure: "Fig 4.1(a)", approximate: true },
  // "Approximately half of the web sites we've profiled contain 100 or less resources"
  { measure: "resource-count", series: "all", statistic: "median", relation: "≤", value: 100, figure: "Fig 4.2(a)", approximate: true },
  // "with 90% of the web sites containing 200 or less resources."
  { measure: "resource-count", series: "all", statistic: "p90", relation: "≤", value: 200, figure: "Fig 4.2(a)", approximate: false },
  // "nearly half of our profiled web pages have a total size of 3MB or less,"
  { measure: "page-size", series: "all", statistic: "median", relation: "≤", value: 3 * MB, figure: "Fig 4.2(b)", approximate: true },
  // "and about 95% of them have a size of 10MB or less."
  { measure: "page-size", series: "all", statistic: "p95", relation: "≤", value: 10 * MB, figure: "Fig 4.2(b)", approximate: true },
  // "about 95% of sites have an average resource size of 100KB or less."
  { measure: "mean-resource-size", series: "all", statistic: "p95", relation: "≤", value: 100 * KB, figure: "Fig 4.2(c)", approximate: true },
  // "web sites download content from tens of domains, with a median of 20 domains per web site."
  { measure: "domains", series: "all", statistic: "median", relation: "≈", value: 20, figure: "Fig 4.3(a)", approximate: false },
  // "For approximately half the web pages examined, less than 5% of the total resources and
  // downloaded bytes originated from the largest domain." For bytes that takes more than 20 domains:
  // the largest of n domains holds at least 1/n of the bytes.
  { measure: "largest-domain-share", series: "resources", statistic: "median", relation: "<", value: 0.05, figure: "Fig 4.3(b)", approximate: true },
  { measure: "largest-domain-share", series: "bytes", statistic: "median", relation: "<", value: 0.05, figure: "Fig 4.3(b)", approximate: true },
  // "half of the web pages examined contain two iframes or less."
  { measure: "iframes", series: "all", statistic: "median", relation: "≤", value: 2, figure: "Fig 4.4(b)", approximate: false },
  // "In the median, only a third or less domains in a web site correspond to CDN edge servers."
  { measure: "cdn-share", series: "domains", statistic: "median", relation: "≤", value: 1 / 3, figure: "Fig 4.5(a)", approximate: false },
  // "CDNs are responsible for delivering nearly 70% of a web page's content in the median."
  { measure: "cdn-share", series: "bytes", statistic: "median", relation: "≈", value: 0.7, figure: "Fig 4.5(b)", approximate: true },
  // Figs 4.1(b), 4.7 and 4.8 are described by their order only (CSS largest, parsing the main
  // parent, the network most of the critical path): no number to compare with.
];

export function thesisValues(measure: MeasureId, series: string): ThesisValue[] {
  return THESIS.filter((t) => t.measure === measure && t.series === series);
}
