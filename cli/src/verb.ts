import { resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { optionErrorMessage } from "./option-error.js";

export interface Verb {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  run(values: Record<string, unknown>, positionals: string[]): Promise<number>;
  /** A verb made of subcommands (`pagepath corpus stats`): run is then not called. */
  subcommands?: Verb[];
  /**
   * The options (and, with positionals, every positional) that name files or folders. They are made
   * absolute as they are parsed, so that a relative path means the same in every part and in every
   * child process, whatever its working directory.
   */
  paths?: { options?: string[]; positionals?: boolean };
  /** A verb that parses its own arguments (a wrapped binary): gets them untouched. */
  raw?: (argv: string[]) => Promise<number>;
}

/** A usage error: printed with the verb's help hint, exit code 2. */
export class UsageError extends Error {}

export function parseVerbArgs(verb: Verb, argv: string[]): { values: Record<string, unknown>; positionals: string[] } {
  return parseOptions(argv, verb.options, verb.paths ?? {});
}

/** A command line read against its options: a usage error that names the option, paths made absolute. */
export function parseOptions(
  argv: string[],
  options: NonNullable<ParseArgsConfig["options"]>,
  paths: NonNullable<Verb["paths"]>,
): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return absolutePaths(paths, values, positionals);
  } catch (e) {
    throw new UsageError(optionErrorMessage(e as Error, options));
  }
}

export function helpText(verb: Verb): string {
  return `${verb.usage.trim()}\n`;
}

/** A numeric option, checked, with the option named in the error. */
export function numberOption(values: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} "${raw}": expected a number from ${min} to ${max}`);
  return n;
}

/**
 * Paths given on the command line, made absolute against the working directory once, here; "-" is
 * left as it is, as the verbs that take it read it as standard output.
 */
export function absolutePaths(
  paths: { options?: string[]; positionals?: boolean },
  values: Record<string, unknown>,
  positionals: string[],
): { values: Record<string, unknown>; positionals: string[] } {
  const out = { ...values };
  for (const name of paths.options ?? []) {
    const v = out[name];
    if (typeof v === "string") out[name] = v === "-" ? v : resolve(v);
    else if (Array.isArray(v)) out[name] = v.map((p) => resolve(String(p)));
  }
  return { values: out, positionals: paths.positionals ? positionals.map((p) => resolve(p)) : positionals };
}
