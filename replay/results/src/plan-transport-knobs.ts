/**
 * The congestion-control and tail-loss-probe factors of an experiment plan (docs/formats/
 * experiment-results.md): the values each cell runs with, and how a cell key names them. A key
 * names only what differs from the defaults (cubic; probes on), so that plans and runs from before
 * these knobs keep their cell ids. A run that predates `configuration.congestion` stays unnamed
 * too: over TCP it ran the host's default controller (BBR on some hosts), which is not recorded, so
 * nothing is made up for it.
 */
import type { ExperimentPlan } from "./experiment.js";
import { asList } from "./plan-schedulers.js";
import type { RunConfiguration, Transport } from "./run-result.js";

/** What the servers run when neither the plan nor the command line names a controller. */
export const DEFAULT_CONGESTION = "cubic";

/** Whether `t` has TCP's tail loss probes to switch (QUIC's probe timeout cannot be). */
export function hasTailLossProbes(t: Transport): boolean {
  return t === "tcp" || t === "mptcp";
}

/** The plan's `congestion` as written, one name or an array, as a list. */
export function writtenCongestion(plan: ExperimentPlan): string[] {
  return asList(plan.congestion);
}

/** The plan's `tailLossProbes` as written, one boolean or an array, as a list. */
export function writtenTailLossProbes(plan: ExperimentPlan): boolean[] {
  return asList(plan.tailLossProbes);
}

/** A controller as a cell key names it: undefined for the default. */
export function congestionKey(name: string | undefined): string | undefined {
  return name === undefined || name === DEFAULT_CONGESTION ? undefined : name;
}

/** The cell keys' congestion values of the plan, in plan order; one undefined (cubic) when it names none. */
export function planCongestionKeys(plan: ExperimentPlan): (string | undefined)[] {
  const written = writtenCongestion(plan);
  return written.length === 0 ? [undefined] : written.map(congestionKey);
}

/** The cell keys' tail-loss-probe values over `t`: false for off, undefined for on; one undefined over QUIC. */
export function planTailLossProbeKeys(plan: ExperimentPlan, t: Transport): (false | undefined)[] {
  const written = writtenTailLossProbes(plan);
  if (!hasTailLossProbes(t) || written.length === 0) return [undefined];
  return written.map((on) => (on ? undefined : false));
}

/** A run's congestion as its cell key names it (undefined: cubic, or not recorded). */
export function runCongestionKey(c: Pick<RunConfiguration, "congestion">): string | undefined {
  return congestionKey(c.congestion);
}

/** A run's tail loss probes as its cell key names them: false when off; undefined when on, over QUIC, or not recorded (they were on). */
export function runTailLossProbeKey(c: Pick<RunConfiguration, "tailLossProbes">): false | undefined {
  return c.tailLossProbes === false ? false : undefined;
}

/** " cc=reno tlp=off" for a key's knobs, "" for the defaults: the suffix labels and log names add. */
export function transportKnobsLabel(k: { congestion?: string; tailLossProbes?: false }): string {
  return `${k.congestion === undefined ? "" : ` cc=${k.congestion}`}${k.tailLossProbes === false ? " tlp=off" : ""}`;
}
