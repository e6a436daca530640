// Builds the wire payload of one report.
import { LIMITS } from '../generated/limits.gen.ts';
import type { Priority, Severity } from '../generated/methods.gen.ts';
import { clamp } from './clamp.ts';
import { addTags } from './tags.ts';
import type { WirePayload } from './types.ts';

const UNTITLED = 'Untitled error';

/** Renders a non-string title or description (`./describe.ts`, or a fallback). */
export type Render = (value: unknown) => string | undefined;

/** A title from any value; empty titles fall back like the service does (first description line). */
function titleOf(title: unknown, description: string | undefined, describe: Render): string {
  let t = typeof title === 'string' ? title : title == null ? '' : (describe(title) ?? '');
  t = t.trim();
  if (!t && description)
    t =
      description
        .split('\n')
        .find((l) => l.trim())
        ?.trim() ?? '';
  return clamp(t || UNTITLED, LIMITS.titleMax);
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
