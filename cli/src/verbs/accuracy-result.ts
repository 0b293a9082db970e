import { ACCURACY_SCHEMA_VERSION, summariseAccuracy, type AccuracyCondition, type AccuracyResult, type AccuracySample, type RunConfiguration } from "@pagepath/results";
import { calibration } from "./accuracy-simulated.js";

export interface AccuracySweepScale {
  conditions: AccuracyCondition[];
  runs: number;
  configurations: Omit<RunConfiguration, "network">[];
}

/** accuracy.json from the sweep's runs, as accuracySample reduces them; pure, so it can be checked without a browser. */
export function accuracyResult(scale: AccuracySweepScale, samples: readonly AccuracySample[]): AccuracyResult {
  const simulated = calibration(samples);
  return {
    schemaVersion: ACCURACY_SCHEMA_VERSION,
    kind: "pagepath-accuracy",
    conditions: scale.conditions,
    runs: scale.runs,
    configurations: scale.configurations,
    summary: summariseAccuracy(samples),
    ...(simulated ? { simulated } : {}),
  };
}
