// Which releases' maps go when a new release uploads: a project keeps the maps of its last
// `releasesKept` releases, ordered by each release's first upload (the newest last uploaded wins
// a tie by name), the new one included.

export interface ReleaseAge {
  release: string;
  /** Unix ms of the release's first kept upload. */
  firstAt: number;
}

/** The releases to delete before maps of `incoming` are stored (none when it is known already). */
export function releasesToPrune(known: ReleaseAge[], incoming: string, kept: number): string[] {
  if (known.some((r) => r.release === incoming)) return [];
  const newestFirst = [...known].sort(
    (a, b) => b.firstAt - a.firstAt || (a.release < b.release ? 1 : a.release > b.release ? -1 : 0),
  );
  return newestFirst.slice(Math.max(0, kept - 1)).map((r) => r.release);
}
