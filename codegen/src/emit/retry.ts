// Emits runtime/src/generated/retry.gen.ts: the retry rule of contract 7 and 8.4 as data (which
// statuses are retried, whether network failures are, the backoff base and cap) with the two small
// readers the transport and the error classes share (`isRetryable`, `parseRetryAfter`). Kept apart
// from the error classes so the transport chunk imports the rule without them.
import { StructureKind } from 'ts-morph';
import type { ErrorRule, Model } from '../model.ts';
import { type Artifact, asConst, constant, createProject, doc, printStatements } from './common.ts';

export const RETRY_PATH = 'runtime/src/generated/retry.gen.ts';

/** Whether a status is retried: the first matching row of the mapping decides (none: not retried). */
export function retriedStatus(rules: ErrorRule[], status: number): boolean {
  for (const rule of rules)
    for (const m of rule.match) {
      if (m.kind === 'status' && m.status === status) return rule.retried;
      if (m.kind === 'range' && status >= m.min && status <= m.max) return rule.retried;
    }
  return false;
}

/** The retried statuses of 400-599 as inclusive `[min, max]` ranges, ascending. */
export function retriedRanges(rules: ErrorRule[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (let status = 400; status <= 599; status++) {
    if (!retriedStatus(rules, status)) continue;
    const last = ranges.at(-1);
    if (last && last[1] === status - 1) last[1] = status;
    else ranges.push([status, status]);
  }
  return ranges;
}

export function emitRetry(model: Model): Artifact {
  const { rules } = model.errors;
  const network = rules.some((r) => r.retried && r.match.some((m) => m.kind === 'network'));
  const rule = {
    statuses: retriedRanges(rules),
    network,
    backoffBaseMs: model.client.backoffBaseMs,
    backoffCapMs: model.client.backoffCapMs,
  };
  const text = printStatements(createProject(), RETRY_PATH, [
    constant('RETRY', asConst(rule), [
      'The retry rule (contract 7, "Retried" column, and 8.4): `statuses` are the retried HTTP statuses',
      'as inclusive ranges (every other status is final), `network` whether network failures and',
      'timeouts are retried; between attempts the wait is a numeric `Retry-After` verbatim, else',
      'exponential with equal jitter from `backoffBaseMs`, capped at `backoffCapMs`.',
    ]),
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'isRetryable',
      docs: doc(
        'Whether a failure with this HTTP status is retried (`undefined` = network failure or timeout).',
      ),
      parameters: [{ name: 'status', type: 'number | undefined' }],
      returnType: 'boolean',
      statements: [
        'return status === undefined ? RETRY.network : RETRY.statuses.some(([min, max]) => status >= min && status <= max);',
      ],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'parseRetryAfter',
      docs: doc(
        "`Retry-After` as integer seconds (the spec's `RetryAfter` header); empty, absent or non-numeric gives undefined.",
      ),
      parameters: [{ name: 'value', type: 'string | null | undefined' }],
      returnType: 'number | undefined',
      statements: [
        "const text = (value ?? '').trim();",
        'return /^\\d+$/.test(text) ? Number(text) : undefined;',
      ],
    },
  ]);
  return { path: RETRY_PATH, text };
}
