/**
 * Checks an experiment plan (docs/formats/experiment-results.md): its shape with the JSON Schema,
 * then the networks its grid and sample make, that names are unique, every protocol has a transport
 * to run over, the client can run every transport, and seeds stay exact.
 */
import { existsSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { EXPERIMENT_SCHEMA_VERSION, PLAN_SUFFIX, type ExperimentPlan } from "./experiment.js";
import { generatedNetworks } from "./plan-networks.js";
import { schedulerKey, writtenSchedulers } from "./plan-schedulers.js";
import { hasTailLossProbes, writtenCongestion, writtenTailLossProbes } from "./plan-transport-knobs.js";
import { transportRefusal, transportsFor, type Transport } from "./run-result.js";
import { shapeProblems, versionProblem } from "./schema-check.js";
import { capProblems, readJsonFile } from "@pagepath/graph-builder";

/**
 * Problems with a parsed plan, each "<where>: <pointer>: <what is wrong>"; empty when valid. A valid
 * plan's `networks` then also holds the networks of its grid and sample (the value is changed).
 */
export function validatePlan(value: unknown, where: string): string[] {
  const problems = versionProblem(value, EXPERIMENT_SCHEMA_VERSION) ?? shapeProblems(value, "experiment-plan") ?? networkProblems(value as ExperimentPlan) ?? consistencyProblems(value as ExperimentPlan);
  return capProblems(problems.map((p) => `${where}: ${p}`), where);
}

/** Reads, parses and validates `<name>.plan.json`; throws an Error listing every problem. */
export function readPlanFile(path: string): ExperimentPlan {
  const value = readJsonFile(path);
  const problems = validatePlan(value, path);
  const plan = value as ExperimentPlan;
  if (problems.length === 0) problems.push(...missingTraces(plan, path));
  // The runs file is found by name, so a plan whose file name disagrees would lose its results.
  if (problems.length === 0 && basename(path) !== plan.name + PLAN_SUFFIX) {
    problems.push(`${path}: /name: ${JSON.stringify(plan.name)} does not match the file name (expected ${plan.name}${PLAN_SUFFIX})`);
  }
  if (problems.length > 0) throw new Error(`${path}: not a valid pagepath experiment plan:\n${problems.join("\n")}`);
  return plan;
}

function networkProblems(p: ExperimentPlan): string[] | undefined {
  const { networks, problems } = generatedNetworks(p);
  if (problems.length > 0) return problems;
  p.networks = [...(p.networks ?? []), ...networks];
  return undefined;
}

function missingTraces(p: ExperimentPlan, planFile: string): string[] {
  const files = new Set(p.networks.flatMap((n) => n.paths.flatMap((path) => (path.trace ? [path.trace.uplink, path.trace.downlink] : []))));
  return [...files].filter((f) => !existsSync(resolve(dirname(planFile), f))).map((f) => `${planFile}: trace ${f}: no such file (traces are found relative to the plan's folder)`);
}

function consistencyProblems(p: ExperimentPlan): string[] {
  const problems = [...duplicates(p.sites.map((s) => s.name), "/sites", "site"), ...duplicates(p.networks.map((n) => n.name), "/networks", "network")];
  p.protocols.forEach((protocol, i) => {
    const fits = transportsFor(protocol);
    if (!p.transports.some((t) => fits.includes(t))) problems.push(`/protocols/${i}: ${protocol} has no transport in /transports to run over (it needs ${fits.join(" or ")})`);
    if (!(protocol in p.connectionsPerOrigin)) problems.push(`/connectionsPerOrigin/${protocol}: is missing (needed because /protocols lists ${protocol})`);
  });
  p.transports.forEach((t, i) => {
    if (!p.protocols.some((protocol) => transportsFor(protocol).includes(t))) problems.push(`/transports/${i}: ${t} carries none of the protocols in /protocols`);
    const multipath = t === "mptcp" || t === "mpquic";
    if (multipath && !p.networks.some((n) => n.paths.length > 1)) problems.push(`/transports/${i}: ${t} needs a network with two paths, and every network of the plan has one (add a topology with "paths": 2)`);
    const refusal = transportRefusal(p.client, t);
    if (refusal) problems.push(`/transports/${i}: ${t}: ${refusal}; use "client": "emulated" for ${t}, or "quic" in /transports`);
  });
  for (const t of Object.keys(p.scheduler ?? {}) as Transport[]) {
    if (!p.transports.includes(t)) problems.push(`/scheduler/${t}: the plan runs no ${t} (it is not in /transports), so its scheduler would never be used`);
  }
  problems.push(...schedulerProblems(p), ...knobProblems(p));
  if (p.tcpProfile !== undefined && p.client !== "simulated") problems.push(`/tcpProfile: the ${p.client} client runs the kernel's TCP; a TCP profile is the simulator's (use "client": "simulated")`);
  if (p.clockTickUs !== undefined && p.client !== "simulated") problems.push(`/clockTickUs: the ${p.client} client runs in real time; a clock tick is the simulator's (use "client": "simulated")`);
  if (p.networks.length === 0) problems.push(`/networks: the plan has no network to run over`);
  if (p.baseSeed + p.runs - 1 > Number.MAX_SAFE_INTEGER) problems.push(`/baseSeed: baseSeed + runs - 1 exceeds 2^53 - 1, so the last seeds would not be exact`);
  return problems;
}

/** Per choice of a scheduler factor: MPTCP's take no options, and no choice is given twice (it would be one cell). */
function schedulerProblems(p: ExperimentPlan): string[] {
  return (["mpquic", "mptcp"] as const).flatMap((t) => {
    const array = Array.isArray(p.scheduler?.[t]);
    const at = (i: number) => `/scheduler/${t}${array ? `/${i}` : ""}`;
    const seen = new Map<string, number>();
    return writtenSchedulers(p, t).flatMap((s, i) => {
      const key = schedulerKey({ name: s.name, options: s.options ?? {} });
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      const options = s.options ?? {};
      return [
        ...(t === "mptcp" && Object.keys(options).length > 0 ? [`${at(i)}/options: the kernel's MPTCP schedulers take no options`] : []),
        ...(first === undefined ? [] : [`${at(i)}: scheduler ${JSON.stringify(key)} is already given at ${at(first)}`]),
      ];
    });
  });
}

/** A factor's value given twice would be one cell; probes switched for a plan without TCP would switch nothing. */
function knobProblems(p: ExperimentPlan): string[] {
  const twice = <T>(values: T[], field: string, array: boolean) => {
    if (!array) return [];
    return values.flatMap((v, i) => {
      const j = values.indexOf(v);
      return j < i ? [`/${field}/${i}: ${JSON.stringify(v)} is already given at /${field}/${j}`] : [];
    });
  };
  const problems = [...twice(writtenCongestion(p), "congestion", Array.isArray(p.congestion)), ...twice(writtenTailLossProbes(p), "tailLossProbes", Array.isArray(p.tailLossProbes))];
  if (p.tailLossProbes !== undefined && !p.transports.some(hasTailLossProbes)) {
    problems.push(`/tailLossProbes: the plan runs no tcp or mptcp (see /transports), and QUIC's probe timeout cannot be switched off, so it would change nothing`);
  }
  return problems;
}

function duplicates(names: string[], at: string, what: string): string[] {
  const first = new Map<string, number>();
  return names.flatMap((n, i) => {
    const j = first.get(n);
    if (j === undefined) first.set(n, i);
    return j === undefined ? [] : [`${at}/${i}/name: ${what} ${JSON.stringify(n)} is already used by ${at}/${j}`];
  });
}
