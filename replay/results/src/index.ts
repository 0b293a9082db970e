export * from "./run-result.js";
export * from "./experiment.js";
export { validateRunResult, readRunResultFile } from "./validate-run.js";
export { validatePlan, readPlanFile } from "./validate-plan.js";
export { planMismatches } from "./plan-match.js";
export { readExperiment, parseRuns, runsFileFor, type Experiment } from "./read-experiment.js";
