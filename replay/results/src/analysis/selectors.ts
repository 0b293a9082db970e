/**
 * Which configurations to compare: a baseline and candidates picked by selectors such as
 * `protocol=h1,transport=tcp`, or, when none is given, the two configurations of each family (the
 * first in plan order as the baseline). A selector that fits nothing, or fits so many that the pairs
 * are ambiguous, is an error naming it and listing the configurations there are.
 */
import type { AnalysisConfiguration } from "./configurations.js";
import { DEFAULT_CONGESTION, hasTailLossProbes } from "../plan-transport-knobs.js";

export const SELECTOR_KEYS = ["protocol", "transport", "scheduler", "congestion", "tailLossProbes", "serverModel", "priority", "family"] as const;
type SelectorKey = (typeof SELECTOR_KEYS)[number];

export interface Selector {
  /** As written, for messages. */
  text: string;
  terms: { key: SelectorKey; value: string }[];
}

export interface ConfigurationPair {
  baseline: AnalysisConfiguration;
  candidate: AnalysisConfiguration;
}

/** `key=value,key=value`; `option` ("--baseline") names it in errors. A value may hold "=" (`scheduler=ecf beta=1`). */
export function parseSelector(text: string, option: string): Selector {
  const terms = text.split(",").map((term) => {
    const at = term.indexOf("=");
    const key = at < 0 ? term.trim() : term.slice(0, at).trim();
    const value = at < 0 ? undefined : term.slice(at + 1).trim();
    if (!key || value === undefined || value === "") throw new Error(`${option} "${text}": "${term}" is not key=value (keys: ${SELECTOR_KEYS.join(", ")})`);
    const known = SELECTOR_KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
    if (!known) throw new Error(`${option} "${text}": unknown key "${key}" (keys: ${SELECTOR_KEYS.join(", ")})`);
    return { key: known, value };
  });
  return { text, terms };
}

/** Values match ignoring case and spaces; "x" stands for "×" so that `family=2paths rttx5` can be typed. */
const normalise = (s: string) => s.toLowerCase().replace(/×/g, "x").replace(/\s+/g, "");

/**
 * A configuration without a scheduler (tcp, quic) is not picked by any `scheduler=`, nor one over QUIC
 * by `tailLossProbes=`. The defaults, absent from a configuration, are selected by name:
 * `congestion=cubic`, `tailLossProbes=on` (or `true`).
 */
export function selects(s: Selector, c: AnalysisConfiguration): boolean {
  return s.terms.every((t) => {
    const value = selectorValue(c, t.key);
    return value !== undefined && normalise(value) === normalise(t.key === "tailLossProbes" ? t.value.replace(/^true$/i, "on").replace(/^false$/i, "off") : t.value);
  });
}

function selectorValue(c: AnalysisConfiguration, key: SelectorKey): string | undefined {
  if (key === "congestion") return c.congestion ?? DEFAULT_CONGESTION;
  if (key === "tailLossProbes") return hasTailLossProbes(c.transport) ? (c.tailLossProbes === false ? "off" : "on") : undefined;
  return c[key];
}

/**
 * The pairs to compare. With a baseline selector: each candidate (every configuration the candidate
 * selectors pick, or every one the baseline does not) is paired with the baseline configuration of
 * its own family, or with the only baseline configuration there is.
 */
export function chooseComparisons(configs: AnalysisConfiguration[], baseline: string | undefined, candidates: string[]): { pairs: ConfigurationPair[]; note: string } {
  if (baseline === undefined) {
    if (candidates.length > 0) throw new Error(`--candidate needs --baseline: say what to compare the candidates with\n${listing(configs)}`);
    return defaultPairs(configs);
  }
  const base = parseSelector(baseline, "--baseline");
  const baselines = configs.filter((c) => selects(base, c));
  if (baselines.length === 0) throw new Error(`--baseline "${baseline}" matches no configuration\n${listing(configs)}`);
  let picked = configs.filter((c) => !baselines.includes(c));
  if (candidates.length > 0) {
    const selectors = candidates.map((text) => parseSelector(text, "--candidate"));
    for (const s of selectors) {
      const hits = configs.filter((c) => selects(s, c));
      if (hits.length === 0) throw new Error(`--candidate "${s.text}" matches no configuration\n${listing(configs)}`);
      if (hits.every((c) => baselines.includes(c))) throw new Error(`--candidate "${s.text}" matches only baseline configurations (of --baseline "${baseline}")\n${listing(configs)}`);
    }
    picked = picked.filter((c) => selectors.some((s) => selects(s, c)));
  }
  if (picked.length === 0) throw new Error(`--baseline "${baseline}" matches every configuration: none is left to compare with it\n${listing(configs)}`);
  const pairs = picked.map((candidate) => {
    const own = baselines.filter((b) => b.familyKey === candidate.familyKey);
    const choice = own.length === 1 ? own[0] : own.length === 0 && baselines.length === 1 ? baselines[0] : undefined;
    if (!choice) {
      const fits = own.length > 0 ? own : baselines;
      throw new Error(`--baseline "${baseline}" matches ${fits.length} configurations for candidate ${candidate.label}: ${fits.map((c) => c.label).join("; ")}; add keys so that one fits\n${listing(configs)}`);
    }
    return { baseline: choice, candidate };
  });
  return { pairs, note: `--baseline "${baseline}"${candidates.map((c) => ` --candidate "${c}"`).join("")}` };
}

function defaultPairs(configs: AnalysisConfiguration[]): { pairs: ConfigurationPair[]; note: string } {
  const byFamily = new Map<string, AnalysisConfiguration[]>();
  for (const c of configs) byFamily.set(c.familyKey, [...(byFamily.get(c.familyKey) ?? []), c]);
  const sizes = new Set([...byFamily.values()].map((f) => f.length));
  if (sizes.size === 1 && sizes.has(1)) return { pairs: [], note: "one configuration per family: nothing to compare (give --baseline and --candidate to compare across families)" };
  if (sizes.size === 1 && sizes.has(2)) {
    return { pairs: [...byFamily.values()].map(([baseline, candidate]) => ({ baseline: baseline!, candidate: candidate! })), note: "the two configurations of each family, the first in plan order as the baseline" };
  }
  throw new Error(`${configs.length} configurations in ${byFamily.size} famil${byFamily.size === 1 ? "y" : "ies"}, not two per family: say which to compare with --baseline (and --candidate)\n${listing(configs)}`);
}

function listing(configs: AnalysisConfiguration[]): string {
  const example = configs[0] ? ` e.g. --baseline "protocol=${configs[0].protocol},transport=${configs[0].transport}"` : "";
  return [`the configurations (selector keys ${SELECTOR_KEYS.join(", ")};${example}):`, ...configs.map((c) => `  ${c.label}`)].join("\n");
}
