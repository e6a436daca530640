// Tag normalisation: array or CSV string in, trimmed, de-duplicated, clamped array out.
import { LIMITS } from '../generated/limits.gen.ts';
import { MAX_TAGS } from '../generated/options.gen.ts';
import { clamp } from './clamp.ts';

/** Appends the tags of `input` (array or CSV string; other values ignored) to `out`. */
export function addTags(out: string[], input: unknown): string[] {
  let list: unknown[] = [];
  try {
    if (typeof input === 'string') list = input.split(',');
    else if (Array.isArray(input)) list = input.slice(0, MAX_TAGS);
  } catch {
    return out;
  }
  for (const raw of list) {
    if (out.length >= MAX_TAGS) break;
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') continue;
    const tag = clamp(String(raw).trim(), LIMITS.tagMax);
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}
