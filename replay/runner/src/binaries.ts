import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The Rust binaries of replay/ (built with cargo build --release). */
const RELEASE = fileURLToPath(new URL("../../../target/release/", import.meta.url));

export const NET_BINARY = `${RELEASE}pagepath-net`;
export const BROWSER_BINARY = `${RELEASE}pagepath-browser`;
export const SIM_BINARY = `${RELEASE}pagepath-sim`;

export function requireBinary(path: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing; build it with: cargo build --release --manifest-path replay/Cargo.toml`);
  return path;
}
