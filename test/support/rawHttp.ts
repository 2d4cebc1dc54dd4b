import http from 'node:http';

/**
 * A request sent as written: the path is not normalized (fetch would resolve `..` and re-encode),
 * header values go out byte for byte (latin1 strings, so UTF-8 bytes can be sent on purpose), and
 * the body is any bytes, with a Content-Length or chunked.
 */
export interface RawRequest {
  method: string;
  /** Path and query string, sent as they are. */
  path: string;
  /** An array value sends the header once per item. */
  headers: Record<string, string | string[]>;
  body?: Uint8Array;
  /** Send the body with `Transfer-Encoding: chunked` instead of a Content-Length. */
  chunked?: boolean;
}

export type RawResponse =
  | { kind: 'response'; status: number; headers: http.IncomingHttpHeaders; body: Buffer }
  | { kind: 'transport_error'; error: string };

/** Sends `request` to the server at `baseUrl` and collects the whole answer; never rejects. */
export function sendRaw(
  baseUrl: string,
  request: RawRequest,
  options: { agent?: http.Agent; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: RawResponse) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request(
        {
          hostname,
          port,
          method: request.method,
          path: request.path,
          agent: options.agent ?? false,
          headers: {
            ...request.headers,
            ...(request.body !== undefined && !request.chunked
              ? { 'content-length': String(request.body.byteLength) }
              : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            settle({
              kind: 'response',
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
          response.on('error', (error) => settle({ kind: 'transport_error', error: String(error) }));
        },
      );
    } catch (error) {
      // Node refuses some paths, methods or header values itself: nothing was sent.
      settle({ kind: 'transport_error', error: `not sent: ${String(error)}` });
      return;
    }
    outgoing.setTimeout(options.timeoutMs ?? 15_000, () => {
      outgoing.destroy(new Error(`no answer within ${options.timeoutMs ?? 15_000} ms`));
    });
    outgoing.on('error', (error) => settle({ kind: 'transport_error', error: String(error) }));
    if (request.body !== undefined) outgoing.write(request.body);
    outgoing.end();
  });
}
