export { predictWithLantern, simulateLantern, type LanternPrediction } from "./predict.js";
export { lanternInputs, type LanternInputs } from "./lantern-inputs.js";
export { readRecordingTrace, type RecordingTrace } from "./read-trace.js";
export { lanternThrottling, type LanternConditions, type LanternThrottling } from "./conditions.js";
export { lanternEngine } from "./engine-version.js";
