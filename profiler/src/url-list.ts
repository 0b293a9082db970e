/** One URL per line; blank lines and lines starting with # are skipped. Errors name the file and line. */
export function parseUrlList(text: string, file: string): string[] {
  const urls: string[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const problem = checkUrl(line);
    if (problem) problems.push(`${file}:${i + 1}: ${problem}`);
    else urls.push(line);
  });
  if (problems.length) throw new Error(`bad URL list:\n  ${problems.join("\n  ")}`);
  if (urls.length === 0) throw new Error(`${file}: no URLs (one per line; # starts a comment)`);
  return urls;
}

/** Why a string is not a URL the profiler can load, or null if it is one. */
export function checkUrl(s: string): string | null {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return `"${s}" is not a URL (expected something like https://example.com/)`;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return `"${s}": only http and https URLs can be profiled, not ${u.protocol}`;
  return null;
}
