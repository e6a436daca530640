// The debug channel. Every logged value is redacted: key values, secrets, signatures and
// Authorization headers never reach the logger, Error objects included.
import type { Logger } from './types.ts';

const PREFIX = '[svc]';
/** Key values by prefix (contract section 2.5); a key id keeps its first 4 characters. */
const TOKENS = /\b(svc_pub_|svc_sec_|svck_|svcek_)([A-Za-z0-9_-]{1,4})[A-Za-z0-9_-]*/g;
const SECRET_FIELD =
  /^(authorization|x-svc-signature|signingsecret|apikey|signature|secret|password|token)$/i;

export function redactText(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[REDACTED]');
  return out.replace(TOKENS, (_, p: string, head: string) =>
    p === 'svck_' || p === 'svcek_' ? `${p}${head}***` : `${p}[REDACTED]`,
  );
}

/** A redacted copy of any value, safe to log. */
export function redact(v: unknown, secrets: readonly string[], depth = 0): unknown {
  try {
    if (typeof v === 'string') return redactText(v, secrets);
    if (!v || typeof v !== 'object' || depth > 5) return v;
    if (v instanceof Error) {
      const e: Record<string, unknown> = {
        name: v.name,
        message: redactText(String(v.message), secrets),
      };
      if (v.stack) e.stack = redactText(v.stack, secrets);
      for (const k of ['status', 'retryable', 'retryAfter', 'fieldErrors', 'cause']) {
        const x = (v as unknown as Record<string, unknown>)[k];
        if (x !== undefined) e[k] = redact(x, secrets, depth + 1);
      }
      return e;
    }
    if (Array.isArray(v)) return v.map((x) => redact(x, secrets, depth + 1));
    const out: Record<string, unknown> = {};
    const entries =
      typeof Headers !== 'undefined' && v instanceof Headers ? [...v] : Object.entries(v);
    for (const [k, x] of entries)
      out[k] = SECRET_FIELD.test(k) ? '[REDACTED]' : redact(x, secrets, depth + 1);
    return out;
  } catch {
    return '[unloggable]';
  }
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
  const out = (fn: 'debug' | 'info' | 'warn', args: unknown[]) => {
    try {
      logger[fn](PREFIX, ...args.map((a) => redact(a, secrets)));
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
