import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

// Answers Node's HTTP server would otherwise write itself, before any route runs, with an empty
// body (contract 7: every answer is JSON): a request it cannot parse or that timed out reading its
// headers (`clientError`), its body's framing broken after the route began (a malformed chunk size,
// a chunk extension past Node's limit: `clientError` too, for a request already handed over), an
// `Expect` other than `100-continue` (`checkExpectation`), and, since Node's own check is turned off
// (`requireHostHeader: false`), an HTTP/1.1 request without `Host` (answered by `missingHost` from
// the first request hook).

const JSON_TYPE = 'application/json; charset=utf-8';

/** The status and message for an error Node's HTTP parser reports on a connection. */
export function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, message: 'The request headers did not arrive in time.' };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, message: 'The request headers are too large.' };
  }
  if (code?.includes('CHUNK')) {
    return { status: 400, message: "The request body's chunked framing is malformed." };
  }
  return { status: 400, message: 'The request could not be parsed as HTTP/1.1.' };
}

/**
 * Fastify's `clientErrorHandler`: a JSON answer on the raw socket, then the socket is closed. The
 * request the parser failed in may already be a route's (its body's framing broke): when nothing
 * of its response was written yet, this is its answer, and the route, whose body read then fails,
 * writes to a closed socket. A response already under way (pipelining) is not cut into.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const response = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !response?.headersSent) {
    const { status, message } = clientErrorAnswer(err.code);
    const body = JSON.stringify({ message });
    // Closed once written: the rest of what the client sends cannot be trusted.
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
    setTimeout(() => socket.destroy(), 1000).unref(); // a client that never reads
    return;
  }
  socket.destroy();
}

/** An `Expect` Node does not handle: 417 with a JSON body instead of Node's empty one. */
export function answerExpectations(server: Server): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      message: 'The Expect header is not supported; only 100-continue is.',
    });
    res.writeHead(417, {
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(body),
      'access-control-allow-origin': req.headers.origin ?? '*',
      connection: 'close',
    });
    res.end(body);
    req.resume();
  });
}

/** An HTTP/1.1 request without `Host` (RFC 9112 3.2 requires a 400); HTTP/1.0 may omit it. */
export const missingHost = (req: IncomingMessage): boolean =>
  req.headers.host === undefined && (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1);

export const MISSING_HOST = { message: 'The request has no Host header (HTTP/1.1 requires one).' };
