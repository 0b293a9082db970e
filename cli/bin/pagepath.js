#!/usr/bin/env node
import { main } from "../dist/src/main.js";

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`pagepath: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
