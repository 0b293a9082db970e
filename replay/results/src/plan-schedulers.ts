/**
 * The scheduler factor of an experiment plan: per multipath transport, the schedulers its cells are
 * run with (docs/formats/experiment-results.md), and the label that names a scheduler in a cell key.
 */
import type { ExperimentPlan, PlannedScheduler } from "./experiment.js";
import { schedulerLabel } from "./path-shares.js";
import type { RunConfiguration, SchedulerChoice, Transport } from "./run-result.js";

export type MultipathTransport = "mpquic" | "mptcp";

/** What a multipath transport runs when a plan names no scheduler for it. */
export const PLAN_DEFAULT_SCHEDULERS: Record<MultipathTransport, string> = { mpquic: "lowest-rtt", mptcp: "default" };

/**
 * What a run that predates `configuration.scheduler` ran: tquic's own minrtt (pagepath's default
 * before its own schedulers) over mpquic, the kernel's default over mptcp.
 */
const UNRECORDED_SCHEDULERS: Record<MultipathTransport, string> = { mpquic: "minrtt", mptcp: "default" };

export function isMultipath(t: Transport): t is MultipathTransport {
  return t === "mpquic" || t === "mptcp";
}

/** A plan field that holds one value or a factor's array, as a list (empty when absent). */
export function asList<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The plan's `scheduler.<transport>` as written, one object or an array, as a list. */
export function writtenSchedulers(plan: ExperimentPlan, t: MultipathTransport): PlannedScheduler[] {
  return asList(plan.scheduler?.[t]);
}

/** Each scheduler the cells over `t` run with, in plan order; one null for a single-path transport. */
export function planSchedulers(plan: ExperimentPlan, t: Transport): (SchedulerChoice | null)[] {
  if (!isMultipath(t)) return [null];
  const written = writtenSchedulers(plan, t);
  if (written.length === 0) return [{ name: PLAN_DEFAULT_SCHEDULERS[t], options: {} }];
  return written.map((s) => ({ name: s.name, options: s.options ?? {} }));
}

/** The cell key's scheduler: "ecf beta=1 form=cwnd", options sorted so that the order written does not matter. */
export function schedulerKey(s: SchedulerChoice): string {
  return schedulerLabel({ name: s.name, options: Object.fromEntries(Object.entries(s.options).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) })!;
}

/** The scheduler a run ran with, as its cell key names it; undefined when its transport has one path. */
export function runSchedulerKey(c: Pick<RunConfiguration, "transport" | "scheduler">): string | undefined {
  if (c.scheduler) return schedulerKey(c.scheduler);
  if (c.scheduler === undefined && isMultipath(c.transport)) return UNRECORDED_SCHEDULERS[c.transport];
  return undefined;
}

/** The plan's scheduler whose key is `key` over `t`; undefined when the plan has none such. */
export function plannedScheduler(plan: ExperimentPlan, t: Transport, key: string | undefined): SchedulerChoice | null | undefined {
  return planSchedulers(plan, t).find((s) => (s ? schedulerKey(s) : undefined) === key);
}
