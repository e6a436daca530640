// The cards of the matrix, checked field by field: title, severity, priority, tags (the exact
// set), file_name, line_number (absent: `lineNumbers` is off by default), occurrence count, and
// the description's stack frames (project-relative, through the source maps).
import { expect } from 'vitest';
import { RELEASE, type TestService, until } from './shared.ts';

type Card = Awaited<ReturnType<TestService['cards']>>[number];

/**
 * What every framework must send for each kind of failure, written out here (not read from the
 * generated table) so that the matrix checks the promise itself: the same severity, priority and
 * tags for the same kind everywhere, only the framework's name differing.
 */
const KINDS = {
  'server-error': {
    severity: 'major',
    priority: 'medium',
    tags: ['server', 'server-error', 'method:GET'],
  },
  'uncaught-exception': {
    severity: 'critical',
    priority: 'high',
    tags: ['server', 'uncaught-exception'],
  },
  'unhandled-rejection': {
    severity: 'critical',
    priority: 'high',
    tags: ['server', 'unhandled-rejection'],
  },
  'browser-error': { severity: 'major', priority: 'medium', tags: ['browser', 'browser-error'] },
  'browser-rejection': {
    severity: 'major',
    priority: 'medium',
    tags: ['browser', 'browser-rejection'],
  },
  'error-boundary': { severity: 'major', priority: 'medium', tags: ['browser', 'error-boundary'] },
  'background-error': {
    severity: 'major',
    priority: 'medium',
    tags: ['server', 'background-error'],
  },
} as const;

/** The frameworks of the matrix (the cards' first tag). */
export type MatrixFramework =
  'express' | 'vite' | 'next' | 'nuxt' | 'sveltekit' | 'react-router' | 'hono';

/** The card `framework` must make for a `kind` failure titled `title`, at `file`. */
export function expected(
  kind: keyof typeof KINDS,
  framework: MatrixFramework,
  card: { title: string; file: string | RegExp; occurrences: number; tags?: string[] },
): ExpectedCard {
  const { severity, priority, tags } = KINDS[kind];
  return { ...card, severity, priority, tags: [framework, ...tags, ...(card.tags ?? [])] };
}

export interface ExpectedCard {
  title: string;
  severity: 'critical' | 'major';
  priority: 'high' | 'medium';
  /** The failure's tags; `env:production` and `release:<RELEASE>` are added here. */
  tags: string[];
  /** `file_name`: the exact path, or a pattern where a bundler names the file. */
  file: string | RegExp;
  occurrences: number;
}

/** Waits until one card titled `title` holds `occurrences`, then checks there is exactly that. */
export async function cardTitled(
  svc: TestService,
  title: string,
  occurrences: number,
): Promise<Card> {
  const titled = () => svc.cards().then((all) => all.filter((card) => card.title === title));
  const found = await until(titled, (c) => c.length === 1 && c[0]!.occurrence_count >= occurrences);
  // A report lost, sent twice, or split over two cards shows here.
  expect(found.map((card) => [card.title, card.occurrence_count])).toEqual([[title, occurrences]]);
  return found[0]!;
}

/** Checks every field of the card of `expected`; returns it. */
export async function expectCard(svc: TestService, expected: ExpectedCard): Promise<Card> {
  const card = await cardTitled(svc, expected.title, expected.occurrences);
  expect({ severity: card.severity, priority: card.priority }).toEqual({
    severity: expected.severity,
    priority: expected.priority,
  });
  expect([...card.tags].sort()).toEqual(
    [...expected.tags, 'env:production', `release:${RELEASE}`].sort(),
  );
  if (typeof expected.file === 'string') expect(card.file_name).toBe(expected.file);
  else expect(card.file_name).toMatch(expected.file);
  expect(card.line_number).toBeNull();
  return card;
}

/** The `at ...` lines of a description. */
export function frames(card: Card): string[] {
  return String(card.description ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line));
}

/** The file of a frame line (`    at fn (app/page.tsx:3:9)` -> `app/page.tsx`). */
export function location(line: string): string | undefined {
  return /\(?([^()\s]+):\d+:\d+\)?$/.exec(line.trim())?.[1];
}

/**
 * The description's stack frames are written as original, project-relative places: the first one
 * (the throw site, in the app's own code) at `file` through the source maps (`at loadOrder
 * (server/api/orders/[id].get.ts:3:9)`), none with a host path, a URL, or a `file://` or
 * `webpack://` prefix. A frame no map resolves (a framework's own bundled runtime) keeps its
 * project-relative generated place, with any content hash written `[hash]`.
 */
export function expectFramesAt(card: Card, file: string, appDir: string): void {
  const lines = frames(card);
  expect(lines.length).toBeGreaterThan(0);
  expect(location(lines[0]!)).toBe(file);
  for (const line of lines) {
    expect(line).not.toContain(appDir);
    expect(line).not.toMatch(/file:\/\/|webpack:\/\/|https?:\/\/|\[project\]/);
    expect(location(line) ?? '').not.toMatch(/^\//);
    // A content hash in a chunk's name would make each build a new variant: masked as [hash].
    const hashed = /[-.](?=\w*\d)(?=\w*[A-Za-z])\w{8,}\.m?js$/;
    expect(location(line) ?? '').not.toMatch(hashed);
  }
}

/** The titles of every card the service holds, sorted. */
export async function allTitles(svc: TestService): Promise<string[]> {
  return (await svc.cards()).map((card) => card.title).sort();
}
