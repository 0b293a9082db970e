/**
 * A child's stderr as part of an error that already names the child: pagepath's binaries start each
 * error line with their own name ("pagepath-server: ..."), which would then be said twice.
 */
export function relayedStderr(stderr: string, name: string): string {
  const prefix = `${name}: `;
  return stderr
    .trim()
    .split("\n")
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
    .join("\n");
}
