// A client that records reporting calls instead of sending them: injected through the handlers'
// `getClient` seam for unit tests of filtering and titles. The wire is covered by test/e2e.
import type { FlushResult, SvcClient } from '@svc/runtime';

export interface Call {
  method: string;
  title: string;
  description: unknown;
  tags: unknown;
}

const METHODS = ['critical', 'major', 'moderate', 'minor'].flatMap((s) => [
  s,
  `${s}Low`,
  `${s}Medium`,
  `${s}High`,
]);

const EMPTY: FlushResult = {
  sent: 0,
  deduplicated: 0,
  failed: 0,
  dropped: { quota: 0, paused: 0, archived: 0, overflow: 0, sampled: 0, beforeSend: 0 },
};

export function recordingClient(flushDelayMs = 0): SvcClient & { calls: Call[]; flushes: number } {
  const calls: Call[] = [];
  const client: Record<string, unknown> = { calls, flushes: 0 };
  for (const method of METHODS) {
    client[method] = (title: string, description?: unknown, tags?: unknown) => {
      calls.push({ method, title, description, tags });
    };
  }
  client.flush = () => {
    (client.flushes as number)++;
    return new Promise<FlushResult>((resolve) => setTimeout(() => resolve(EMPTY), flushDelayMs));
  };
  return client as unknown as SvcClient & { calls: Call[]; flushes: number };
}
