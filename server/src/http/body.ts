import type { IncomingMessage } from 'node:http';

/** How the request body is read. */
export interface BodyLimits {
  /** Largest accepted body, bytes; more is answered 413. */
  limit: number;
  /**
   * Past `limit`, the rest of the body is read and discarded up to this many bytes in all, so a
   * client still sending gets the 413 rather than a reset connection. A larger body (or a larger
   * declared `Content-Length`) is answered at once and the connection closed.
   */
  drainLimit: number;
  /** The whole body must arrive within this many ms of the headers, else 408. */
  timeoutMs: number;
}

/** A client mistake found while reading the body; the error handler answers `{ message }`. */
/** Largest accepted body. A report with a maximal description fits with room to spare. */
export const BODY_LIMIT = 1024 * 1024;

export class BodyError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const tooLargeMessage = (limit: number) => `The request body is larger than ${limit} bytes.`;

/**
 * Reads the raw body bytes (signatures need them exactly). Rejects with a BodyError: 413 over the
 * limit (after draining, see `drainLimit`), 408 when the body stalls, 400 when the client aborts.
 */
export function readBody(stream: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(stream.headers['content-length']);
    if (declared > limits.drainLimit) {
      reject(new BodyError(413, tooLargeMessage(limits.limit)));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error?: BodyError) => {
      clearTimeout(timer);
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (!error) return resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      stream.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limits.limit) chunks.push(chunk);
      else if (received > limits.drainLimit)
        finish(new BodyError(413, tooLargeMessage(limits.limit)));
    };
    const onEnd = () =>
      finish(
        received > limits.limit ? new BodyError(413, tooLargeMessage(limits.limit)) : undefined,
      );
    const onError = () => finish(new BodyError(400, 'The request body was cut short.'));
    const onClose = () => finish(new BodyError(400, 'The request body was cut short.'));
    const timer = setTimeout(
      () =>
        finish(
          new BodyError(
            408,
            `The request body did not arrive within ${limits.timeoutMs / 1000} s.`,
          ),
        ),
      limits.timeoutMs,
    );
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
