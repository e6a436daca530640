// The debug channel. Every logged value is rendered to text and redacted: the client's own key
// values and secrets, anything shaped like a key (contract 2.5 prefixes), and the values of
// Authorization / X-Svc-Signature headers never reach the logger, Error objects included.
import { describe } from './describe.ts';
import type { Logger } from './types.ts';

/** Key values by prefix; key ids (public) keep their first 4 characters for recognition. */
const TOKENS = /\b(svc_pub_|svc_sec_|svck_|svcek_)([\w-]{0,4})[\w-]*/g;
/** Header-shaped secrets: `Authorization: Bearer ...`, `"X-Svc-Signature":"..."`. */
const HEADERS = /((?:authorization|x-svc-signature)"?\s*[:=]\s*"?)(?:Bearer )?[^"\s,}]+/gi;

export function redact(v: unknown, secrets: readonly string[]): string {
  let s = describe(v) ?? String(v);
  for (const secret of secrets) s = s.split(secret).join('[REDACTED]');
  return s
    .replace(HEADERS, '$1[REDACTED]')
    .replace(
      TOKENS,
      (_, p: string, head: string) => p + (p.length < 7 ? `${head}***` : '[REDACTED]'),
    );
}

export interface Debug {
  /** Only when `debug` is on. */
  log(...args: unknown[]): void;
  /** Always shown (missing credentials, bad keys, conflicting options). */
  warn(...args: unknown[]): void;
  /** Always shown (`logLocally`). */
  info(...args: unknown[]): void;
}

export function createDebug(logger: Logger, enabled: boolean, secrets: readonly string[]): Debug {
  const out = (fn: keyof Logger, args: unknown[]) => {
    try {
      logger[fn]('[svc]', ...args.map((a) => redact(a, secrets)));
    } catch {
      // a broken logger never breaks the host
    }
  };
  return {
    log: (...args) => enabled && out('debug', args),
    warn: (...args) => out('warn', args),
    info: (...args) => out('info', args),
  };
}
