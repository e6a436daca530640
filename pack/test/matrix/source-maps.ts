// Private source maps in the matrix (each README's `sourceMaps: 'upload'`): what a build leaves in
// the folder it deploys (no map, no map comment), what it uploaded (as the service's operator
// lists it), the build's one line, and that a rebuild after an unrelated change (new chunk hashes,
// a new release) adds the same error to the same card and the same variant.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listSourceMaps } from '@svc/testkit';
import { expect, it } from 'vitest';
import { cardTitled, frames } from './cards.ts';
import type { RunningApp } from './scenarios.ts';
import { RELEASE } from './shared.ts';

/** Every file under `dir`, relative. */
function filesUnder(dir: string, at = ''): string[] {
  return readdirSync(join(dir, at)).flatMap((name) => {
    const path = at ? `${at}/${name}` : name;
    return statSync(join(dir, path)).isDirectory() ? filesUnder(dir, path) : [path];
  });
}

/** What a deploy holds of source maps: `.map` files and files naming a map. */
export function mapsIn(dir: string): string[] {
  return filesUnder(dir).filter(
    (f) =>
      f.endsWith('.map') ||
      (/\.(?:m?js|css|html)$/.test(f) &&
        /^\s*(?:\/\/|\/\*)[#@] sourceMappingURL=/m.test(readFileSync(join(dir, f), 'utf8'))),
  );
}

/**
 * The build's upload: its one line, no map left in `deployed`, and the service holding a map for
 * every chunk path the build's line counted, under the matrix's release, among them `chunk`.
 */
export function uploadedMaps(
  app: () => RunningApp,
  build: {
    output: () => string;
    deployed: () => string;
    chunk: RegExp;
    /** Whether the bundler writes debug IDs into browser chunks (Rolldown, Rollup, Turbopack). */
    debugIds: boolean;
  },
): void {
  it('the build uploads its maps (one line) and deploys none: no .map, no sourceMappingURL', async () => {
    const line = /^\[svc\] uploaded (\d+) source maps? for release (\S+)$/m.exec(build.output());
    expect(line?.[2]).toBe(RELEASE);
    expect(mapsIn(build.deployed())).toEqual([]);
    const listed = await listSourceMaps(app().svc.dataDir, app().svc.projectId);
    expect(listed).toHaveLength(Number(line![1]));
    expect(new Set(listed.map((m) => m.release))).toEqual(new Set([RELEASE]));
    const browser = listed.filter((m) => build.chunk.test(m.path));
    expect(browser.length).toBeGreaterThan(0);
    const withIds = browser.filter((m) => /^[0-9a-f-]{36}$/.test(m.debug_id ?? ''));
    expect(withIds.length).toBe(build.debugIds ? browser.length : 0);
  });
}

/** The card titled `title` has its throw site at `file`, in a frame named `fn`. */
export async function expectMappedThrowSite(
  app: RunningApp,
  title: string,
  throwSite: { file: string; fn: string },
): Promise<void> {
  const card = (await app.svc.cards()).find((c) => c.title === title)!;
  expect(card.file_name).toBe(throwSite.file);
  const at = frames(card).find((line) => line.includes(`(${throwSite.file}:`));
  expect(at).toMatch(new RegExp(`^ {4}at ${throwSite.fn} \\(`));
}

/**
 * After the checks of the first build: an unrelated change, a rebuild with another release and a
 * restart (`rebuild`), then the same error again (`again`): one more occurrence on the same card,
 * in the variant the first build's reports made (contract 2.4: same title, description, place).
 */
export function rebuildKeepsVariant(
  app: () => RunningApp,
  failure: { title: string; rebuild: () => Promise<void>; again: () => Promise<void> },
): void {
  // A second production build: minutes on a loaded machine (webpack's took 2.5 here).
  const timeout = 600_000;
  it(
    'after an unrelated change and a rebuild (new hashes, new release): the same card, the same variant',
    { timeout },
    async () => {
      const before = (await app().svc.cards()).find((c) => c.title === failure.title)!;
      expect(before.variants).toHaveLength(1);
      const chunks = (await listSourceMaps(app().svc.dataDir, app().svc.projectId)).map(
        (m) => m.path,
      );
      await failure.rebuild();
      const listed = await listSourceMaps(app().svc.dataDir, app().svc.projectId);
      // The rebuild's chunks are new files under a new release.
      const rebuilt = listed.filter((m) => m.release !== RELEASE);
      expect(rebuilt.length).toBeGreaterThan(0);
      expect(rebuilt.some((m) => !chunks.includes(m.path))).toBe(true);
      await failure.again();
      const after = await cardTitled(app().svc, failure.title, before.occurrence_count + 1);
      expect(after.id).toBe(before.id);
      expect(after.variants.map((v) => [v.description, v.file_name, v.count])).toEqual([
        [
          before.variants[0]!.description,
          before.variants[0]!.file_name,
          before.variants[0]!.count + 1,
        ],
      ]);
    },
  );
}

/**
 * After `rebuildKeepsVariant`'s rebuild: the failure `again` sets off once more (a server error of
 * the rebuilt server) adds one occurrence to the card titled `title`, in its variant whose
 * description starts with `variant`, and makes no new variant.
 */
export function againKeepsVariant(
  app: () => RunningApp,
  failure: { title: string; variant: string; again: () => Promise<void> },
): void {
  it(`after the rebuild, "${failure.variant}" adds to its variant of the same card`, async () => {
    const before = (await app().svc.cards()).find((c) => c.title === failure.title)!;
    const ofIt = (card: typeof before) =>
      card.variants
        .filter((v) => v.description?.startsWith(failure.variant))
        .map((v) => [v.description, v.file_name, v.count]);
    const [[description, fileName, count]] = ofIt(before) as [[string, string, number]];
    await failure.again();
    const after = await cardTitled(app().svc, failure.title, before.occurrence_count + 1);
    expect(after.id).toBe(before.id);
    expect(ofIt(after)).toEqual([[description, fileName, count + 1]]);
    expect(after.variants).toHaveLength(before.variants.length);
  });
}
