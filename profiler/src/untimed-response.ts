import { decodedBody, header, headerObject, type HttpMessage } from "./http-message.js";
import type { UntimedResponse } from "./untimed-order.js";

/** An untimed response, and why its body is kept as sent if its codings could not be undone. */
export type WithProblem = UntimedResponse & { problem: string | null };

/** A request and its response as HTTP/1.x messages, as both untimed archives keep them. */
export function untimedResponse(
  url: string,
  method: string,
  request: HttpMessage,
  response: HttpMessage,
  status: { version: string; status: number; statusText: string },
  remoteAddress: string | null,
): WithProblem {
  const { body, problem } = decodedBody(response);
  const headBytes = Buffer.byteLength(response.firstLine) + 2 + response.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 2);
  return {
    url,
    method,
    requestHeaders: headerObject(request.headers),
    postData: request.body.length ? request.body.toString("utf8") : null,
    status: status.status,
    statusText: status.statusText,
    responseHeaders: headerObject(response.headers),
    mimeType: (header(response, "content-type") ?? "").split(";")[0]!.trim().toLowerCase() || "x-unknown",
    protocol: status.version.toLowerCase(),
    remoteAddress,
    connectionId: null,
    redirectTo: null,
    failure: null,
    fromCache: null,
    resourceType: null,
    priority: null,
    body,
    bodySize: body.length,
    encodedDataLength: headBytes + response.body.length,
    problem,
  };
}

