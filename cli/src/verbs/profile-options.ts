import {
  DEFAULT_CHROMIUM,
  DEFAULT_STOP,
  parseCpuThrottle,
  parseDevice,
  parseNetwork,
  type ProfileOptions,
} from "@pagepath/profiler";
import { numberOption, UsageError } from "../verb.js";

/** Options shared by every verb that drives the profiler. */
export const PROFILE_OPTIONS = {
  "quiet-ms": { type: "string" },
  "timeout-ms": { type: "string" },
  "cpu-throttle": { type: "string" },
  network: { type: "string" },
  device: { type: "string" },
  "host-resolver-rules": { type: "string" },
  "ignore-certificate-errors-spki-list": { type: "string" },
  "keep-credentials": { type: "boolean" },
  "no-trace": { type: "boolean" },
  "no-async-stacks": { type: "boolean" },
  passes: { type: "string" },
  chromium: { type: "string" },
  "chromium-arg": { type: "string", multiple: true },
} as const;

export const PROFILE_OPTIONS_HELP = `
Recording:
  --quiet-ms MS          after the load event, stop once the network is idle this long (default ${DEFAULT_STOP.quietMs})
  --timeout-ms MS        overall cap per page; a page whose load event has not fired by then
                         is recorded as incomplete (default ${DEFAULT_STOP.capMs})
  --keep-credentials     keep cookies and Authorization-type headers (redacted by default)
  --no-trace             skip Chrome's trace (less overhead; graphs become network-only)
  --no-async-stacks      skip async stack traces (less overhead; timer/promise initiators lose their cause)
  --passes 1|2           2: load each page twice, timing it with Chrome's trace alone and taking bodies,
                         headers and initiators from a second load with the Network domain, whose
                         protocol messages slow the page's renderer (pagepath bench profiler); the
                         manifest lists requests only one load made (default 1)
Conditions (recorded in the manifest; profile names the recording after them too):
  --cpu-throttle N       CPU slowdown factor, 1-100 (default 1)
  --network SPEC         slow-3g | fast-3g | slow-4g | LATENCY_MS,DOWN_KBPS,UP_KBPS
  --device NAME|WxH[@S]  a puppeteer device name ("iPhone 15") or a viewport like 390x844@3
Browser:
  --chromium PATH        Chromium binary (default ${DEFAULT_CHROMIUM}, or $PAGEPATH_CHROMIUM)
  --host-resolver-rules R             passed to Chromium, e.g. "MAP *.test 127.0.0.1"
  --ignore-certificate-errors-spki-list HASHES   base64 SPKI hashes to trust (comma-separated)
  --chromium-arg ARG     any other Chromium flag (repeatable)
`;

/** --passes: 1 or 2 (ProfileOptions.passes). */
export function passesOption(values: Record<string, unknown>): 1 | 2 {
  const passes = numberOption(values, "passes", 1, 1, 2);
  if (!Number.isInteger(passes)) throw new UsageError(`--passes "${values.passes}": expected 1 or 2`);
  return passes as 1 | 2;
}

export function profileOptions(values: Record<string, unknown>): ProfileOptions {
  const passes = passesOption(values);
  if (passes === 2 && values["no-trace"] === true) throw new UsageError("--passes 2 times the page from Chrome's trace: it cannot go with --no-trace");
  return {
    executablePath: (values.chromium as string | undefined) ?? DEFAULT_CHROMIUM,
    hostResolverRules: values["host-resolver-rules"] as string | undefined,
    ignoreCertificateSpki: (values["ignore-certificate-errors-spki-list"] as string | undefined)?.split(",").filter(Boolean),
    extraArgs: (values["chromium-arg"] as string[] | undefined) ?? [],
    stop: {
      quietMs: numberOption(values, "quiet-ms", DEFAULT_STOP.quietMs, 0, 600_000),
      capMs: numberOption(values, "timeout-ms", DEFAULT_STOP.capMs, 100, 3_600_000),
    },
    conditions: {
      cpuThrottlingRate: values["cpu-throttle"] !== undefined ? parseCpuThrottle(String(values["cpu-throttle"])) : 1,
      network: values.network !== undefined ? parseNetwork(String(values.network)) : null,
      device: values.device !== undefined ? parseDevice(String(values.device)) : null,
    },
    redact: values["keep-credentials"] !== true,
    instrument: { network: true, trace: values["no-trace"] !== true, asyncStacks: values["no-async-stacks"] !== true },
    passes,
  };
}
