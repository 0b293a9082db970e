/**
 * The complete lines of a runs file, from its text split at each newline (`pieces`, read whole or a
 * chunk at a time): each non-blank one with its 1-based number. The piece after the last newline is
 * what a crash mid-write leaves; readers skip it, and `onTorn` gets its number.
 */
export function* completeLines(pieces: Iterable<string>, onTorn: (line: number) => void): Generator<{ n: number; text: string }> {
  let n = 0;
  let held: string | null = null;
  for (const piece of pieces) {
    if (held !== null && held.trim() !== "") yield { n, text: held };
    held = piece;
    n++;
  }
  if (held !== null && held.trim() !== "") onTorn(n);
}

/** A runs file's text as its complete lines, and the number of a torn last line. */
export function runsFileLines(text: string): { lines: { n: number; text: string }[]; tornLine: number | null } {
  let tornLine: number | null = null;
  const lines = [...completeLines(text.split("\n"), (n) => (tornLine = n))];
  return { lines, tornLine };
}
