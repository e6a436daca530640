// Builds clients for tests: pointed at a local server (`serviceUrl`), a recording logger, and injected
// clock/sleep/random where a test needs them.
import { createClient, type SvcOptions } from '../../src/index.node.ts';
import type { ClientDeps } from '../../src/core/types.ts';

/** A well-formed publishable key (the recording server accepts any). */
export const API_KEY = 'svc_pub_0123456789abcdef0123456789abcdef0123456789abcdef';
export const KEY = { apiKey: API_KEY };

export interface LogLine {
  level: 'debug' | 'info' | 'warn';
  text: string;
}

export function recordingLogger() {
  const lines: LogLine[] = [];
  const push =
    (level: LogLine['level']) =>
    (...args: unknown[]) =>
      lines.push({
        level,
        text: args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '),
      });
  return { lines, logger: { debug: push('debug'), info: push('info'), warn: push('warn') } };
}

/** Sleeps recorded and skipped (resolved at once). */
export function fakeSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

/** A client of `create` (the Node entry's unless given) for `url`, with a recording logger. */
export function clientFor(
  url: string,
  options: SvcOptions,
  deps: ClientDeps = {},
  create: typeof createClient = createClient,
) {
  const log = recordingLogger();
  const client = create(
    { captureLocation: false, ...options },
    { serviceUrl: url, logger: log.logger, ...deps },
  );
  return { client, log };
}
