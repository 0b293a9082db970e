/**
 * A runs file's text as its complete lines, each with its 1-based number (blank ones left out),
 * and the number of a last line without its newline: what a crash mid-write leaves, which
 * readers skip (read-experiment.ts reads the same rule a chunk at a time).
 */
export function runsFileLines(text: string): { lines: { n: number; text: string }[]; tornLine: number | null } {
  const all = text.split("\n");
  const tail = all.pop()!;
  const lines = all.map((line, i) => ({ n: i + 1, text: line })).filter((l) => l.text.trim() !== "");
  return { lines, tornLine: tail.trim() !== "" ? all.length + 1 : null };
}
