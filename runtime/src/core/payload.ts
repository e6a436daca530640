// Builds the wire payload of one report.
import { LIMITS, UNTITLED_TITLE } from '../generated/limits.gen.ts';
import type { Priority, Severity } from '../generated/methods.gen.ts';
import { clamp } from './clamp.ts';
import { addTags } from './tags.ts';
import type { WirePayload } from './types.ts';

/** Renders a non-string title or description (`./describe.ts`, or a fallback). */
export type Render = (value: unknown) => string | undefined;

/**
 * A title from any value; an empty title falls back like the service does: the first non-empty
 * description line, else the spec's `UNTITLED_TITLE`.
 */
function titleOf(title: unknown, description: string | undefined, describe: Render): string {
  const text = typeof title === 'string' ? title : title == null ? '' : (describe(title) ?? '');
  const firstLine = description?.split('\n').find((line) => line.trim());
  return clamp(text.trim() || firstLine?.trim() || UNTITLED_TITLE, LIMITS.titleMax);
}

export function buildPayload(
  severity: Severity,
  priority: Priority,
  title: unknown,
  description: unknown,
  tags: unknown,
  baseTags: readonly string[],
  describe: Render,
): WirePayload {
  const text = typeof description === 'string' ? description : describe(description);
  const payload: WirePayload = {
    severity,
    priority,
    title: titleOf(title, text, describe),
    tags: addTags(baseTags.slice(), tags),
  };
  if (text) payload.description = clamp(text, LIMITS.sdkDescriptionMax);
  return payload;
}
