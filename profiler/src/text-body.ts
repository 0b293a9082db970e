const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The bytes a server sent for a text body that CDP handed back decoded. Chromium's decoder drops a
 * UTF-8 byte-order mark, so a body that is exactly three bytes short of an uncompressed response's
 * Content-Length had one, and gets it back; otherwise the body is as CDP gave it.
 */
export function restoreTextBytes(body: Buffer, headers: Record<string, string>): Buffer {
  const header = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const encoding = header("content-encoding");
  if (encoding && encoding.toLowerCase() !== "identity") return body;
  const length = Number(header("content-length"));
  if (length === body.length + UTF8_BOM.length && !body.subarray(0, 3).equals(UTF8_BOM)) return Buffer.concat([UTF8_BOM, body]);
  return body;
}

/**
 * A MIME type whose bodies are text: stored and exported as text, not base64 (which the archive
 * marks base64Encoded, as CDP sends binary bodies), and filled with spaces when only a size is known.
 */
export function isTextMime(mime: string): boolean {
  return /^text\/|javascript|ecmascript|json|xml/.test(mime);
}
