// Builds the wire payload of one report.
import { LIMITS, UNTITLED_TITLE } from '../generated/limits.gen.ts';
import type { Priority, Severity } from '../generated/methods.gen.ts';
import { clamp } from './clamp.ts';
import { addTags } from './tags.ts';
import type { Render, WirePayload } from './types.ts';

/** The first non-empty line of a text. */
const firstLine = (text: string | undefined) => text?.split('\n').find((line) => line.trim());

/**
 * A title from any value (the first line of its text: an Error's `Name: message`); an empty title
 * falls back like the service does: the first non-empty description line, else the spec's
 * `UNTITLED_TITLE`.
 */
function titleOf(title: unknown, description: string | undefined, describe: Render): string {
  // describe(null) and describe(undefined) are undefined
  const text = typeof title === 'string' ? title : firstLine(describe(title) as string);
  return clamp(text?.trim() || firstLine(description)?.trim() || UNTITLED_TITLE, LIMITS.titleMax);
}

/** The payload of one report; `text` is the rendered description, `describe` renders a title. */
export function buildPayload(
  severity: Severity,
  priority: Priority,
  title: unknown,
  text: string | undefined,
  tags: unknown,
  baseTags: readonly string[],
  describe: Render,
): WirePayload {
  const payload: WirePayload = {
    severity,
    priority,
    title: titleOf(title, text, describe),
    tags: addTags(baseTags.slice(), tags),
  };
  if (text) payload.description = clamp(text, LIMITS.sdkDescriptionMax);
  return payload;
}
