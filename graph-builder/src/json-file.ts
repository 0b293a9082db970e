import { readFileSync } from "node:fs";

/** More problems than this bury the first ones, which usually cause the rest. */
const MAX_PROBLEMS = 50;

/**
 * Reads and parses a JSON file of any pagepath format, with errors that name the file and say
 * whether it is missing, unreadable or not JSON; the read error's code (e.g. ENOENT) is kept.
 */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw Object.assign(new Error(err.code === "ENOENT" ? `${path}: no such file` : `${path}: cannot be read (${err.message})`), { code: err.code });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message}); the file may be truncated or corrupt`);
  }
}

/** The first MAX_PROBLEMS problems of `where`, and a line counting the rest. */
export function capProblems(all: string[], where: string): string[] {
  if (all.length <= MAX_PROBLEMS) return all;
  return [...all.slice(0, MAX_PROBLEMS), `${where}: ... and ${all.length - MAX_PROBLEMS} more problems`];
}
