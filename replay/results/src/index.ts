export * from "./run-result.js";
export * from "./experiment.js";
export { validateRunResult, readRunResultFile } from "./validate-run.js";
export { validatePlan, readPlanFile } from "./validate-plan.js";
export { planMismatches } from "./plan-match.js";
export { readExperiment, parseRuns, runsFileFor, type Experiment } from "./read-experiment.js";
export { runToTrace, urlTail, type GraphLike, type RunTrace, type TraceEvent } from "./trace-events.js";
export * from "./accuracy.js";
export { accuracyScatterSvg, apeByConditionSvg } from "./accuracy-plot.js";
