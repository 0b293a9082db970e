import { benchDecisionCost, type DecisionCost } from "./scheduler-cost.js";
import { benchSchedulerThroughput, type ThroughputResult } from "./scheduler-throughput.js";

/** `pagepath bench schedulers`: decision cost on the sans-IO interface, then bulk throughput on the real stack. */
export interface SchedulersBenchResult {
  decisionCost: DecisionCost[];
  throughput: ThroughputResult;
}

export async function benchSchedulers(megabytes: number, loads: number, log: (line: string) => void): Promise<SchedulersBenchResult> {
  log("decision cost on the sans-IO interface (pagepath-scheduler-bench)");
  const decisionCost = await benchDecisionCost();
  log(`bulk throughput: ${megabytes} MB over two emulated paths, ${loads} load${loads === 1 ? "" : "s"} per scheduler, in turns`);
  const throughput = await benchSchedulerThroughput(megabytes, loads, log);
  return { decisionCost, throughput };
}
