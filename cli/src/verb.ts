import { parseArgs, type ParseArgsConfig } from "node:util";

export interface Verb {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  run(values: Record<string, unknown>, positionals: string[]): Promise<number>;
  /** A verb made of subcommands (`pagepath corpus stats`): run is then not called. */
  subcommands?: Verb[];
  /** A verb that parses its own arguments (a wrapped binary): gets them untouched. */
  raw?: (argv: string[]) => Promise<number>;
}

/** A usage error: printed with the verb's help hint, exit code 2. */
export class UsageError extends Error {}

export function parseVerbArgs(verb: Verb, argv: string[]): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: verb.options, allowPositionals: true, strict: true });
    return { values, positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
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
