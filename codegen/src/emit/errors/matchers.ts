// What each carried value looks like in the emitted error classes and factory, and how status matchers
// of the error mapping become TypeScript conditions and doc labels. Shared by classes.ts and factory.ts.
import type { Carry, StatusMatcher } from '../../model.ts';

export const CARRY_FIELDS: Partial<
  Record<Carry, { type: string; doc: string; init: string; fromResponse: string }>
> = {
  fieldErrors: {
    type: 'Record<string, string[]>',
    doc: 'Failing field name to its messages (the `errors` map of a 422); empty when absent.',
    init: 'init.fieldErrors ?? {}',
    fromResponse: 'fieldErrorsOf(body)',
  },
  retryAfter: {
    type: 'number | undefined',
    doc: 'Seconds to wait, from `Retry-After` (integer seconds; absent or non-numeric gives undefined).',
    init: 'init.retryAfter',
    fromResponse: "parseRetryAfter(headers?.get('retry-after') ?? null)",
  },
};

/** Condition on `status`; `optional` when status may be undefined (network failure). */
export function condition(m: StatusMatcher, optional: boolean): string {
  if (m.kind === 'network') return 'status === undefined';
  if (m.kind === 'status') return `status === ${m.status}`;
  const range = `status >= ${m.min} && status <= ${m.max}`;
  return optional ? `status !== undefined && ${range}` : range;
}

export function label(m: StatusMatcher): string {
  return m.kind === 'network'
    ? 'network failure or timeout'
    : m.kind === 'status'
      ? String(m.status)
      : `${m.min / 100}xx`;
}
