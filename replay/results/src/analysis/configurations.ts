/**
 * An experiment's configurations: everything that sets a run apart except its site, its replication
 * and its network's grid point. So a configuration is a protocol stack (with its multipath scheduler,
 * congestion controller and tail loss probes), server model and priority scheme on one family of networks, and its runs across the family's grid
 * points are comparable cells.
 */
import { planKnobKeys, planSchedulerKeys, planStacks, type ExperimentPlan } from "../experiment.js";
import { runSchedulerKey } from "../plan-schedulers.js";
import { runCongestionKey, runTailLossProbeKey, transportKnobsLabel } from "../plan-transport-knobs.js";
import type { PriorityScheme, Protocol, RunResult, ServerModel, Transport } from "../run-result.js";
import { familyKey, familyLabel } from "./network-family.js";

export interface AnalysisConfiguration {
  /** Short and unique within the experiment: "h2/tcp · out-of-order · none · 2 paths rtt×5", "h3/mpquic ecf beta=1 · ...". */
  label: string;
  protocol: Protocol;
  transport: Transport;
  /** The multipath scheduler (CellKey's scheduler); absent over tcp and quic. */
  scheduler?: string;
  /** CellKey's congestion: the controller when not cubic. */
  congestion?: string;
  /** CellKey's tailLossProbes: false when off. */
  tailLossProbes?: false;
  serverModel: ServerModel;
  priority: PriorityScheme;
  /** familyLabel of its networks. */
  family: string;
  /** familyKey of its networks: the full description. */
  familyKey: string;
  /** The plan's networks of the family, in plan order. */
  networks: string[];
}

type LabelParts = Pick<AnalysisConfiguration, "protocol" | "transport" | "scheduler" | "congestion" | "tailLossProbes" | "serverModel" | "priority" | "family">;

export function configurationLabel(c: LabelParts): string {
  return `${c.protocol}/${c.transport}${c.scheduler === undefined ? "" : ` ${c.scheduler}`}${transportKnobsLabel(c)} · ${c.serverModel} · ${c.priority} · ${c.family}`;
}

/** The plan's configurations: family by family (in the order their first network is listed), then stack, server model and priority in plan order. */
export function planConfigurations(plan: ExperimentPlan): AnalysisConfiguration[] {
  const families = new Map<string, { label: string; networks: string[] }>();
  for (const n of plan.networks) {
    const key = familyKey(n);
    const f = families.get(key) ?? { label: familyLabel(n), networks: [] };
    f.networks.push(n.name);
    families.set(key, f);
  }
  return [...families].flatMap(([key, f]) =>
    planStacks(plan).flatMap((stack) =>
      planSchedulerKeys(plan, stack.transport).flatMap((scheduler) =>
        planKnobKeys(plan, stack.transport).flatMap(([congestion, tailLossProbes]) =>
          plan.serverModels.flatMap((serverModel) =>
            plan.priorities.map((priority) => {
              const knobs = { ...(congestion === undefined ? {} : { congestion }), ...(tailLossProbes === undefined ? {} : { tailLossProbes }) };
              const parts = { ...stack, ...(scheduler === undefined ? {} : { scheduler }), ...knobs, serverModel, priority, family: f.label };
              return { label: configurationLabel(parts), ...parts, familyKey: key, networks: f.networks };
            }),
          ),
        ),
      ),
    ),
  );
}

/** A run's configuration: its stack, scheduler and transport knobs, server model and priority, on its network's family. */
export function configurationOfRun(run: RunResult): string {
  const c = run.configuration;
  const parts: LabelParts = { protocol: c.protocol, transport: c.transport, scheduler: runSchedulerKey(c), congestion: runCongestionKey(c), tailLossProbes: runTailLossProbeKey(c), serverModel: c.serverModel, priority: c.priority, family: familyLabel(c.network) };
  return configurationLabel(parts);
}
