import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { experimentOutput, planSchedulers, readPlanFile, validatePlan, writtenCongestion, type ExperimentPlan } from "@pagepath/results";
import { checkReplayInputs } from "../graph-check.js";
import { resolveScheduler, SchedulerRefusal } from "../multipath-scheduler.js";
import { resolveTransportKnobs, TransportKnobRefusal } from "../transport-knobs.js";

export interface PreparedExperiment {
  /** The resolved plan: every network explicit, paths relative to its own folder. */
  plan: ExperimentPlan;
  planFile: string;
  runsFile: string;
  outDir: string;
}

/**
 * Checks a plan as a user wrote it and everything its runs will need (every graph valid, every fetch
 * archived), then writes the resolved plan where experimentOutput says (by default
 * `<plan folder>/<name>/<name>.plan.json`), where the runs file will grow beside it. Throws before
 * any run starts, naming every problem. A sweep that resumes must find the same resolved plan it began with.
 * `checked`, if given, is called once everything is checked and before anything is written.
 */
export function prepareExperiment(sourcePlanFile: string, outDir?: string, checked?: (plan: ExperimentPlan) => void): PreparedExperiment {
  const source = resolve(sourcePlanFile);
  const plan = readPlanFile(source);
  const sourceDir = dirname(source);
  const problems = plan.sites.flatMap((site, i) => {
    try {
      checkReplayInputs(resolve(sourceDir, site.graph));
      return [];
    } catch (e) {
      return [`${source}: /sites/${i} (${site.name}): ${(e as Error).message}`];
    }
  });
  problems.push(...[...schedulerProblems(plan), ...knobProblems(plan)].map((p) => `${source}: ${p}`));
  if (problems.length > 0) throw new Error(`${source}: the plan cannot be run:\n${problems.join("\n")}`);
  // Where a caller that cannot run the sweep (no root) refuses: after the plan's errors, before any write.
  checked?.(plan);

  const { dir: out, planFile, runsFile } = experimentOutput(source, outDir);
  const resolved = planFile === source ? plan : rebase(plan, sourceDir, out);
  const text = JSON.stringify(resolved, null, 2) + "\n";
  if (existsSync(planFile)) {
    if (planFile !== source && readFileSync(planFile, "utf8") !== text) {
      throw new Error(`${planFile}: holds a different plan than ${source} resolves to: the plan changed since this sweep began. Give another --out, or remove ${out} to start over`);
    }
  } else {
    mkdirSync(out, { recursive: true });
    writeFileSync(planFile, text);
  }
  const problemsOut = validatePlan(JSON.parse(text), planFile);
  if (problemsOut.length > 0) throw new Error(`the resolved plan is not valid (a bug in pagepath):\n${problemsOut.join("\n")}`);
  return { plan: resolved, planFile, runsFile, outDir: out };
}

/**
 * Each scheduler the plan's cells run with, its default included, checked by the binaries that will
 * run it (names and options), each problem at the JSON pointer of its choice.
 */
function schedulerProblems(plan: ExperimentPlan): string[] {
  return (["mpquic", "mptcp"] as const).filter((t) => plan.transports.includes(t)).flatMap((t) => {
    const array = Array.isArray(plan.scheduler?.[t]);
    return planSchedulers(plan, t).flatMap((s, i) => {
      try {
        resolveScheduler(t, s!.name, Object.entries(s!.options).map(([k, v]) => `${k}=${v}`), plan.client);
        return [];
      } catch (e) {
        if (!(e instanceof SchedulerRefusal)) throw e;
        return [`/scheduler/${t}${array ? `/${i}` : ""}: ${e.message.replace(/^--scheduler(-opt)?:? ?/, "")}`];
      }
    });
  });
}

/** The plan with its networks explicit and its files found from `to` instead of `from`. */
function rebase(plan: ExperimentPlan, from: string, to: string): ExperimentPlan {
  const move = (file: string) => relative(to, resolve(from, file));
  const { grid: _grid, sample: _sample, topologies: _topologies, ...rest } = plan;
  return {
    ...rest,
    sites: plan.sites.map((s) => ({ ...s, graph: move(s.graph) })),
    networks: plan.networks.map((n) => ({ ...n, paths: n.paths.map((p) => (p.trace ? { ...p, trace: { uplink: move(p.trace.uplink), downlink: move(p.trace.downlink) } } : p)) })),
  };
}

/**
 * Each congestion controller of the plan over each transport it runs, and tail loss probes off, checked
 * by pagepath-server as serve will check them (the kernel's controllers for tcp/mptcp, tquic's for
 * quic/mpquic), each problem at the JSON pointer of its value.
 */
function knobProblems(plan: ExperimentPlan): string[] {
  const at = (field: "congestion" | "tailLossProbes", i: number) => `/${field}${Array.isArray(plan[field]) ? `/${i}` : ""}`;
  const refused = (pointer: string, check: () => unknown) => {
    try {
      check();
      return [];
    } catch (e) {
      if (!(e instanceof TransportKnobRefusal)) throw e;
      return [`${pointer}: ${e.message}`];
    }
  };
  return writtenCongestion(plan).flatMap((name, i) => {
    for (const t of plan.transports) {
      const problem = refused(at("congestion", i), () => resolveTransportKnobs(t, name, undefined, plan.client));
      if (problem.length > 0) return problem.map((p) => `${p} (the plan runs ${t})`);
    }
    return [];
  });
}
