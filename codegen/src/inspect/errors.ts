// Reads the client error mapping (`x-svc-error-mapping`, contract section 7) into the plain
// `ErrorMapping` model: status matchers, class, what it carries, whether it is retried.
import type { Carry, ErrorMapping, ErrorRule, StatusMatcher } from '../model.ts';
import { type Doc, isObject } from './document.ts';

function matcher(raw: unknown): StatusMatcher {
  if (typeof raw === 'number') return { kind: 'status', status: raw };
  const text = String(raw);
  if (text === 'network') return { kind: 'network' };
  const range = /^([1-5])xx$/i.exec(text);
  if (range)
    return { kind: 'range', min: Number(range[1]) * 100, max: Number(range[1]) * 100 + 99 };
  if (/^\d{3}$/.test(text)) return { kind: 'status', status: Number(text) };
  throw new Error(`x-svc-error-mapping: cannot read match "${text}"`);
}

export function readErrorMapping(doc: Doc): ErrorMapping {
  const mapping = doc['x-svc-error-mapping'];
  if (!isObject(mapping) || !isObject(mapping.base) || !Array.isArray(mapping.rows)) {
    throw new Error('x-svc-error-mapping with base and rows is required');
  }
  const rules: ErrorRule[] = mapping.rows.map((row: unknown) => {
    if (!isObject(row)) throw new Error('x-svc-error-mapping: each row must be a mapping');
    return {
      match: (Array.isArray(row.match) ? row.match : [row.match]).map(matcher),
      className: String(row.class),
      phpClassName: String(row['php-class']),
      carries: (Array.isArray(row.carries) ? row.carries : []).map(String) as Carry[],
      retried: row.retried === true,
      description: String(row.description ?? ''),
    };
  });
  return {
    base: {
      className: String(mapping.base.class),
      phpClassName: String(mapping.base['php-class']),
      description: String(mapping.base.description ?? ''),
    },
    rules,
  };
}
