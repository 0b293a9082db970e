import { rustBinary, runRustBinary } from "../rust-binary.js";
import type { Verb } from "../verb.js";
import { netPing } from "./net-ping.js";

/** The link emulator is Rust (replay/link); this verb hands its arguments over unchanged. */
export const NET_BINARY = rustBinary("pagepath-net");

export const netVerb: Verb = {
  name: "net",
  summary: "emulated links: bring a topology up or down, run commands in it, Mahimahi-style shells, plots",
  usage: "pagepath net <up|down|exec|status|ping|shell|plot> ...   (pagepath net help for the details)",
  options: {},
  run: async () => 2,
  // ping is pagepath-netprobe's echo and rtt run inside the topology; the rest is pagepath-net's.
  raw: (argv) => (argv[0] === "ping" ? netPing(NET_BINARY, argv.slice(1)) : runRustBinary("pagepath net", NET_BINARY, argv)),
};
