// Cross-SDK conformance, TypeScript side: every case of spec/conformance/payloads.json (options and
// one reporting call -> the exact wire payload and headers). The PHP suite runs the same file
// (php/tests/Conformance), so the two SDKs cannot drift apart. fetch is injected and records the
// request: the subject is the payload, not the network.
import { describe, expect, it } from 'vitest';
import table from '../../spec/conformance/payloads.json' with { type: 'json' };
import { createClient } from '../src/index.node.ts';

interface Case {
  name: string;
  options?: Record<string, unknown>;
  call: unknown[];
  beforeSend?: { merge?: Record<string, unknown>; remove?: string[]; return?: null };
  payload: unknown;
  headers?: Record<string, string | null>;
  wire?: string;
}

/** Expands `{"$repeat": [text, n]}` and `{"$list": [prefix, n]}` anywhere in a value. */
function expand(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expand);
  if (!value || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.$repeat)) return String(v.$repeat[0]).repeat(Number(v.$repeat[1]));
  if (Array.isArray(v.$list)) {
    const [prefix, count] = v.$list as [string, number];
    return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x)]));
}

function beforeSendOf(spec: Case['beforeSend']) {
  if (!spec) return undefined;
  return (payload: Record<string, unknown>) => {
    if ('return' in spec) return spec.return;
    const out: Record<string, unknown> = { ...payload, ...(expand(spec.merge ?? {}) as object) };
    for (const key of spec.remove ?? []) delete out[key];
    return out;
  };
}

describe('conformance (spec/conformance/payloads.json)', () => {
  it.each((table.cases as Case[]).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const requests: { headers: Headers; body: string }[] = [];
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      requests.push({ headers: new Headers(init?.headers), body: String(init?.body) });
      return new Response('{"deduplicated":false}', { status: 201 });
    };
    const options = {
      apiKey: table.apiKey,
      captureLocation: false,
      ...(expand(c.options ?? {}) as object),
      beforeSend: beforeSendOf(c.beforeSend),
    };
    const client = createClient(options as never, { fetch: fetch as typeof globalThis.fetch });
    const [method, ...args] = expand(c.call) as [string, ...unknown[]];
    (client as unknown as Record<string, (...a: unknown[]) => void>)[method]!(...args);
    await client.flush();

    const expected = expand(c.payload);
    if (expected === null) return expect(requests).toEqual([]);
    expect(requests).toHaveLength(1);
    const { body, headers } = requests[0]!;
    // Same keys, same order, same values: the bytes are JSON.stringify of the expected payload.
    expect(JSON.parse(body)).toEqual(expected);
    expect(body).toBe(JSON.stringify(expected));
    if (c.wire !== undefined) expect(body).toBe(c.wire);
    for (const [name, value] of Object.entries(c.headers ?? {}))
      expect(headers.get(name)).toBe(value);
  });
});
