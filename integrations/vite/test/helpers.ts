import type { SvcClient } from '@svc/runtime';

export interface Call {
  method: string;
  title: string;
  description: unknown;
  tags: unknown;
}

/**
 * A recording client, injected through the helpers' `client` parameter; delivery over the wire is
 * covered end to end in test/e2e against the real reference service.
 */
export function recordingClient(): SvcClient & { calls: Call[] } {
  const calls: Call[] = [];
  return new Proxy({ calls } as object, {
    get(_target, prop) {
      if (prop === 'calls') return calls;
      if (prop === 'flush') return async () => ({});
      if (prop === 'then') return undefined;
      return (title: string, description?: unknown, tags?: unknown) =>
        calls.push({ method: String(prop), title, description, tags });
    },
  }) as SvcClient & { calls: Call[] };
}
