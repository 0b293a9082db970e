/**
 * The accuracy result format: what `pagepath accuracy` writes to accuracy.json. The JSON Schema is
 * formats/schema/accuracy.schema.json and the written description docs/formats/accuracy.md;
 * bump ACCURACY_SCHEMA_VERSION on any incompatible change.
 */
import type { AccuracySummary } from "./accuracy.js";
import type { RunConfiguration } from "./run-result.js";

export const ACCURACY_SCHEMA_VERSION = 1;

export interface AccuracyConditionPath {
  /** Both ways, Mbit/s. */
  rateMbit: number;
  rttMs: number;
}

/**
 * A network condition as `--conditions` gave it; the runner's Condition has this shape, but the
 * runner depends on this package, not the other way round.
 */
export interface AccuracyCondition extends AccuracyConditionPath {
  morePaths?: AccuracyConditionPath[];
}

/** The simulator measured against the real emulated replay, and against Chromium. */
export interface AccuracyCalibration {
  againstReplay: AccuracySummary;
  againstChromium: AccuracySummary;
}

export interface AccuracyResult {
  /** Files written before the field have none; readAccuracyFile reads them as version 1. */
  schemaVersion: typeof ACCURACY_SCHEMA_VERSION;
  kind: "pagepath-accuracy";
  conditions: AccuracyCondition[];
  /** Runs of each client per site, condition and protocol. */
  runs: number;
  /** The emulated browser's configuration per protocol compared; each condition is its network. */
  configurations: Omit<RunConfiguration, "network">[];
  summary: AccuracySummary;
  /** Only when the sweep had simulated runs. */
  simulated?: AccuracyCalibration;
}
