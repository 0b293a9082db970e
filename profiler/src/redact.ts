/**
 * Credentials never reach a recording unless the user asks: header values named here are replaced,
 * in headers objects, raw header text and cookie lists alike, and user:password in URLs is dropped.
 */
export const REDACTED = "[redacted by pagepath]";

export const CREDENTIAL_HEADERS = [
  "cookie",
  "set-cookie",
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "x-auth-token",
  "x-csrf-token",
  "x-xsrf-token",
];

const CREDENTIAL_SET = new Set(CREDENTIAL_HEADERS);

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_SET.has(name.toLowerCase());
}

export function redactHeaders<T extends Record<string, unknown>>(headers: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isCredentialHeader(k) ? REDACTED : v;
  return out as T;
}

/** Raw HTTP header text as in *ExtraInfo events: "Name: value" lines. */
export function redactHeadersText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const colon = line.indexOf(":", line.startsWith(":") ? 1 : 0);
      if (colon <= 0) return line;
      return isCredentialHeader(line.slice(0, colon).trim()) ? `${line.slice(0, colon)}: ${REDACTED}` : line;
    })
    .join("\r\n");
}

export function redactUrl(url: string): string {
  if (!url.includes("@")) return url;
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

/**
 * Redacts a CDP event's params in place, walking the whole object so that new protocol fields holding
 * headers (request.headers, response.headers, headersText, associatedCookies...) are covered too.
 */
export function redactEventParams(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) {
    if (/cookies$/i.test(key)) return value.map(() => REDACTED);
    return value.map((v) => redactEventParams(v));
  }
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const headerish = /headers$/i.test(key);
    for (const [k, v] of Object.entries(obj)) {
      if (headerish && isCredentialHeader(k)) obj[k] = REDACTED;
      else if (/cookie$/i.test(k) && typeof v !== "object") obj[k] = REDACTED;
      else obj[k] = redactEventParams(v, k);
    }
    return obj;
  }
  if (typeof value === "string") {
    if (/headersText$/i.test(key)) return redactHeadersText(value);
    if (/url$/i.test(key)) return redactUrl(value);
  }
  return value;
}
