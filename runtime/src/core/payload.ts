// Builds the wire payload of one report, and re-validates whatever `beforeSend` returns.
import { LIMITS } from '../generated/limits.gen.ts';
import type { Priority, Severity } from '../generated/methods.gen.ts';
import { clamp } from './clamp.ts';
import { read } from './options.ts';
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

/**
 * Validates and clamps the result of `beforeSend` against the original payload: severity and
 * priority stay the method's, unknown keys are removed, a missing title keeps the original one.
 */
export function sanitize(result: unknown, original: WirePayload): WirePayload {
  const get = (k: string) => read(result, k);
  const description = get('description');
  const fileName = get('file_name');
  const line = get('line_number');
  const out: WirePayload = {
    severity: original.severity,
    priority: original.priority,
    title: '',
    tags: addTags([], get('tags')),
  };
  const text =
    typeof description === 'string' && description
      ? clamp(description, LIMITS.sdkDescriptionMax)
      : undefined;
  const title = get('title');
  out.title =
    typeof title === 'string' && title.trim() ? clamp(title, LIMITS.titleMax) : original.title;
  if (text) out.description = text;
  if (typeof fileName === 'string' && fileName) out.file_name = clamp(fileName, LIMITS.fileNameMax);
  if (Number.isSafeInteger(line) && (line as number) >= LIMITS.lineNumberMin)
    out.line_number = line as number;
  return out;
}
