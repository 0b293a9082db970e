/** The current UTC time as a file-name part, e.g. 20250101-120000. */
export function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
}
