/**
 * An accuracy sweep's runs reduced to what its report counts, and Lantern's predictions beside them:
 * samples.json, so that sweeps made at different times or on different machines (each recording
 * its own corpus) can be reported together. JSON Schema: formats/schema/accuracy-samples.schema.json;
 * written description: docs/formats/accuracy-samples.md.
 */
import { capProblems, readJsonFile } from "@pagepath/graph-builder";
import type { AccuracySample } from "./accuracy.js";
import type { AccuracyCondition } from "./accuracy-result.js";
import type { RunConfiguration } from "./run-result.js";
import { shapeProblems, versionProblem } from "./schema-check.js";

export const ACCURACY_SAMPLES_SCHEMA_VERSION = 1;

/** One run: its cell, its number there, the graph and recording it replayed, and the times the report compares. */
export interface AccuracyRunSample extends AccuracySample {
  run: number;
  graphSha256: string;
  /** The run result's site.recordingSha256; absent from runs made before it. */
  recordingSha256?: string;
}

/** Lantern's predictions for one site under one condition (condition named as the runs name it). */
export interface LanternCell {
  site: string;
  condition: string;
  fcpMs: number | null;
  lcpMs: number | null;
  interactiveMs: number | null;
  /** Why Lantern gave nothing for this cell, or null. */
  error: string | null;
}

export interface AccuracySamples {
  schemaVersion: typeof ACCURACY_SAMPLES_SCHEMA_VERSION;
  kind: "pagepath-accuracy-samples";
  conditions: AccuracyCondition[];
  runs: number;
  configurations: Omit<RunConfiguration, "network">[];
  samples: AccuracyRunSample[];
  lantern: { engine: string; cells: LanternCell[] } | null;
}

/**
 * samples.json's text: one sample and one Lantern cell a line, so that a file kept in a repository
 * changes line by line as sweeps are added.
 */
export function accuracySamplesJson(s: AccuracySamples): string {
  const list = (items: readonly unknown[]) => (items.length === 0 ? "[]" : `[\n${items.map((i) => `  ${JSON.stringify(i)}`).join(",\n")}\n ]`);
  const { samples, lantern, ...head } = s;
  const fields = Object.entries(head).map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  fields.push(` "samples": ${list(samples)}`);
  fields.push(` "lantern": ${lantern === null ? "null" : `{ "engine": ${JSON.stringify(lantern.engine)}, "cells": ${list(lantern.cells)} }`}`);
  return `{\n${fields.join(",\n")}\n}\n`;
}

/** Reads, parses and validates samples.json; throws an Error naming the file and listing every problem. */
export function readAccuracySamplesFile(path: string): AccuracySamples {
  const value = readJsonFile(path);
  const problems = versionProblem(value, ACCURACY_SAMPLES_SCHEMA_VERSION) ?? shapeProblems(value, "accuracy-samples") ?? [];
  if (problems.length > 0) throw new Error(`${path}: not valid pagepath accuracy samples:\n${capProblems(problems.map((p) => `${path}: ${p}`), path).join("\n")}`);
  return value as AccuracySamples;
}
