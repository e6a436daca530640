import { type BatchView, PENDING_BASE, type ReleaseSighting } from './batch-types.ts';
import type { FirstSeen } from './fold.ts';
import { releaseOf } from './releases.ts';
import type { TaskReport } from './types.ts';

/**
 * The releases a batch's reports carry: each project's first sight of each (written once; a stored
 * one is kept), and the order a card resolved in a release compares them in: the stored order
 * (asked of the view only then), else the order this batch first saw them in, after every stored one.
 */
export class BatchReleases {
  readonly #view: BatchView;
  /** `projectId\0release` -> its place among the releases this batch saw first. */
  readonly #seen = new Map<string, number>();
  readonly #sightings: ReleaseSighting[] = [];

  constructor(view: BatchView) {
    this.#view = view;
  }

  /** Records the report's release; returns the order to compare its project's releases in. */
  sight(projectId: number, report: TaskReport, at: number): FirstSeen {
    const name = releaseOf(report.tags);
    if (name !== null && !this.#seen.has(`${projectId}\0${name}`)) {
      this.#seen.set(`${projectId}\0${name}`, PENDING_BASE + this.#seen.size);
      this.#sightings.push({ projectId, name, at });
    }
    return (release) =>
      this.#view.releaseSeen(projectId, release) ??
      this.#seen.get(`${projectId}\0${release}`) ??
      null;
  }

  writes(): ReleaseSighting[] {
    return this.#sightings;
  }
}
