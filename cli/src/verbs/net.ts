import { rustBinary, runRustBinary } from "../rust-binary.js";
import type { Verb } from "../verb.js";

/** The link emulator is Rust (replay/link); this verb hands its arguments over unchanged. */
export const NET_BINARY = rustBinary("pagepath-net");

export const netVerb: Verb = {
  name: "net",
  summary: "emulated links: bring a topology up or down, run commands in it, Mahimahi-style shells, plots",
  usage: "pagepath net <up|down|exec|status|shell|plot> ...   (pagepath net help for the details)",
  options: {},
  run: async () => 2,
  raw: (argv) => runRustBinary("pagepath net", NET_BINARY, argv),
};
