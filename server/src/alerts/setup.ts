import { LIMITS } from '../generated/limits.gen.ts';
import {
  type NewAlertRule,
  RULE_EVENTS,
  type RuleEvent,
  SEVERITIES,
  type Severity,
  WEBHOOK_FORMATS,
  type WebhookFormat,
} from './types.ts';

// What a webhook or a rule may be, checked in one place for the board, the CLI and the API.

/** A webhook or rule that cannot be set up as asked; the message says why, for the person asking. */
export class AlertSetupError extends Error {
  override name = 'AlertSetupError';
}

const NAME_MAX = 100;
const URL_MAX = 2048;
/** The longest window: a day (counts are kept per minute as long as the longest window). */
export const WINDOW_MAX_MINUTES = 1440;
const DEFAULT_WINDOW_MINUTES = 60;
const ENVIRONMENTS_MAX = 20;
/** An environment is the value of an `env:` tag, so at most a tag's length minus the prefix. */
const ENVIRONMENT_MAX = LIMITS.tagMax - 'env:'.length;

export interface WebhookInput {
  projectId: number;
  name?: string;
  url: string;
  /** @default 'json' */
  format?: string;
}

export interface RuleInput {
  projectId: number;
  webhookId: number;
  event: string;
  name?: string;
  /** Environments (a list, or one comma-separated string); empty: every report. */
  environments?: readonly string[] | string;
  /** Severities (a list, or one comma-separated string); empty: all. */
  severities?: readonly string[] | string;
  /** `frequency`: more than this many reports in the window. */
  threshold?: number | string;
  /** @default 60 */
  windowMinutes?: number | string;
}

const listOf = (value: readonly string[] | string | undefined): string[] =>
  (typeof value === 'string' ? value.split(',') : (value ?? []))
    .map((v) => v.trim())
    .filter(Boolean);

const nameOf = (value: string | undefined, fallback: string): string => {
  const name = (value ?? '').trim() || fallback;
  const control = [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (name.length > NAME_MAX || control) {
    throw new AlertSetupError(`A name is at most ${NAME_MAX} printable characters.`);
  }
  return name;
};

function integerIn(value: number | string | undefined, what: string, min: number, max: number) {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (n === undefined || !Number.isInteger(n) || n < min || n > max) {
    throw new AlertSetupError(`${what} must be a whole number from ${min} to ${max}.`);
  }
  return n;
}

/** A webhook's URL: absolute http(s), no credentials in it, at most 2048 characters. */
export function webhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AlertSetupError('The webhook URL must be an absolute http:// or https:// URL.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new AlertSetupError('The webhook URL must be an absolute http:// or https:// URL.');
  }
  if (url.username || url.password) {
    throw new AlertSetupError('The webhook URL must not hold a user name or password.');
  }
  if (url.href.length > URL_MAX) {
    throw new AlertSetupError(`The webhook URL is at most ${URL_MAX} characters.`);
  }
  url.hash = '';
  return url;
}

export function webhookFormat(value: string | undefined): WebhookFormat {
  const format = (value ?? 'json').trim() || 'json';
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(format)) {
    throw new AlertSetupError(`The format is ${WEBHOOK_FORMATS.join(' or ')}.`);
  }
  return format as WebhookFormat;
}

const defaultName = (event: RuleEvent, threshold: number | null, minutes: number) =>
  event === 'new'
    ? 'New cards'
    : event === 'regression'
      ? 'Regressions'
      : `More than ${threshold} reports in ${minutes} min`;

/** A rule from what a person typed: checked, with its defaults. */
export function ruleOf(input: RuleInput): NewAlertRule {
  const event = input.event.trim() as RuleEvent;
  if (!RULE_EVENTS.includes(event)) {
    throw new AlertSetupError(`A rule fires on ${RULE_EVENTS.join(', ')}.`);
  }
  const frequency = event === 'frequency';
  const given = (v: number | string | undefined) => v !== undefined && String(v).trim() !== '';
  if (!frequency && given(input.threshold)) {
    throw new AlertSetupError('Only a frequency rule has a threshold.');
  }
  const threshold = frequency
    ? integerIn(input.threshold, 'The threshold', 1, 1_000_000_000)
    : null;
  const windowMinutes = given(input.windowMinutes)
    ? integerIn(input.windowMinutes, 'The window (minutes)', 1, WINDOW_MAX_MINUTES)
    : DEFAULT_WINDOW_MINUTES;
  const environments = [...new Set(listOf(input.environments))];
  if (
    environments.length > ENVIRONMENTS_MAX ||
    environments.some((e) => e.length > ENVIRONMENT_MAX)
  ) {
    throw new AlertSetupError(
      `At most ${ENVIRONMENTS_MAX} environments, each at most ${ENVIRONMENT_MAX} characters.`,
    );
  }
  const severities = [...new Set(listOf(input.severities))];
  for (const s of severities) {
    if (!(SEVERITIES as readonly string[]).includes(s)) {
      throw new AlertSetupError(`A severity is one of ${SEVERITIES.join(', ')}.`);
    }
  }
  return {
    projectId: input.projectId,
    webhookId: input.webhookId,
    name: nameOf(input.name, defaultName(event, threshold, windowMinutes)),
    event,
    environments: environments.length > 0 ? environments : null,
    severities: severities.length > 0 ? (severities as Severity[]) : null,
    threshold,
    windowMinutes,
  };
}

/** A webhook's name from what a person typed, else its host. */
export const webhookName = (name: string | undefined, url: URL) => nameOf(name, url.host);

/**
 * A webhook's URL as lists, pages and logs show it: its origin, and `/…` for the rest (a path or
 * query may be its credential, as a Slack incoming webhook's is).
 */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && parsed.search === '' ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return '(not a URL)';
  }
}
