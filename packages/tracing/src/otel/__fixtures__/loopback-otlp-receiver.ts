import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedExport {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A running loopback OTLP/HTTP collector. */
export interface LoopbackOtlpReceiver {
  /** Base endpoint, e.g. `http://127.0.0.1:40123`. */
  endpoint: string;
  received: ReceivedExport[];
  close(): Promise<void>;
}

/**
 * A minimal OTLP/HTTP JSON collector on 127.0.0.1 that records every request body and answers
 * `status` (200 with an empty ExportTraceServiceResponse by default).
 *
 * @example
 * const receiver = await startLoopbackOtlpReceiver();
 * // … export to receiver.endpoint …
 * await receiver.close();
 */
export async function startLoopbackOtlpReceiver(status = 200): Promise<LoopbackOtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Keep the raw text: a non-JSON body is itself what a failing test should show.
      }
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
      });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status < 300 ? '{}' : '{"message":"collector says no"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback URL nothing listens on (a port that was just released).
 *
 * @example
 * const endpoint = await unusedLoopbackEndpoint(); // connection refused
 */
export async function unusedLoopbackEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
