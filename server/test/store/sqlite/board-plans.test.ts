import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../src/store/sqlite/driver.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardQuery } from '../../../src/store/board-types.ts';
import { cardsSql, type CardsSqlOptions } from '../../../src/store/cards-sql.ts';
import { SQLITE_CARDS } from '../../../src/store/sqlite/board-cards.ts';
import { openSqliteBoardStore } from '../../../src/store/sqlite/board.ts';

// The cards page's queries on SQLite, by `EXPLAIN QUERY PLAN` over the migrated schema (no
// statistics, so the plan does not depend on the rows): each sort reads one index range per status
// (titles: deduplication's index, one range) from the cursor, in order, with no temporary sort,
// and a filtered scan's window edge reads the index alone.
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-board-plans-'));
  openSqliteBoardStore({ dataDir }).close(); // creates and migrates the file
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('cards page plans', () => {
  it('every sort reads one index range per status (titles: one), in order, from the cursor (no temporary sort)', () => {
    const db = openSqlite(join(dataDir, 'svc.sqlite'), { readonly: true });
    const plan = (q: Partial<CardQuery>, o: Partial<CardsSqlOptions> = {}) => {
      const query = { sort: 'last_seen', dir: 'desc', limit: 50, ...q } as CardQuery;
      const { sql, params } = cardsSql(SQLITE_CARDS, 1, query, { limit: 51, ...o });
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
        (r) => r.detail,
      );
    };
    // [query, index, what the index search is bounded by after project and status]
    const cases: [Partial<CardQuery>, string, string][] = [
      [{ sort: 'last_seen' }, 'cards_by_status_last_seen', ''],
      [{ sort: 'first_seen' }, 'cards_by_status_first_seen', ''],
      [{ sort: 'count', dir: 'asc' }, 'cards_by_status_count', ''],
      [{ sort: 'severity' }, 'cards_by_status_severity', ''],
      [{ sort: 'priority' }, 'cards_by_status_priority', ''],
      [{ sort: 'title', dir: 'asc' }, 'cards_by_title', ''],
      [{ severity: 'major' }, 'cards_by_status_last_seen', ''],
      [{ priority: 'low', sort: 'count' }, 'cards_by_status_count', ''],
      [{ sort: 'count', after: [3, 10] }, 'cards_by_status_count', ' AND occurrence_count<?'],
      [{ sort: 'title', before: ['x', 10] }, 'cards_by_title', ' AND title>?'],
      [{ sort: 'severity', before: [3, 10] }, 'cards_by_status_severity', ' AND severity_rank>?'],
      // A severity under its own sort: the range is on the id within the rank.
      [
        { sort: 'severity', severity: 'critical', after: [4, 10] },
        'cards_by_status_severity',
        ' AND severity_rank=? AND id<?',
      ],
      [{ tag: 'env:prod', text: 'x' }, 'cards_by_status_last_seen', ''],
      [{ statuses: ['todo', 'in_progress'] }, 'cards_by_status_last_seen', ''],
      // Titles: deduplication's index (project_id, title), the status checked row by row.
      [{ statuses: ['done'], sort: 'title', dir: 'asc' }, 'cards_by_title', ''],
      [
        { statuses: ['todo', 'in_progress'], sort: 'count', after: [3, 10] },
        'cards_by_status_count',
        ' AND occurrence_count<?',
      ],
      [
        { statuses: ['ignored'], sort: 'severity', severity: 'minor' },
        'cards_by_status_severity',
        ' AND severity_rank=?',
      ],
    ];
    for (const [q, index, bound] of cases) {
      const detail = plan(q);
      const title = q.sort === 'title';
      const arms = title ? 1 : (q.statuses ?? ['todo', 'in_progress', 'done', 'ignored']).length;
      const search = `SEARCH cards USING INDEX ${index} (project_id=?${title ? '' : ' AND status=?'}${bound})`;
      expect([q, detail.filter((d) => d.startsWith('SEARCH cards'))]).toEqual([
        q,
        Array(arms).fill(search),
      ]);
      expect(detail.join('\n'), JSON.stringify(q)).not.toContain('TEMP B-TREE');
    }
    // The window edge of a filtered scan reads the index alone.
    for (const sort of ['last_seen', 'count'] as const) {
      const detail = plan({ sort, tag: 'x', statuses: ['done'] }, { keysOnly: true, offset: 999 });
      expect(detail).toEqual([
        `SEARCH cards USING COVERING INDEX cards_by_status_${sort} (project_id=? AND status=?)`,
      ]);
    }
    const titles = plan({ sort: 'title', statuses: ['done'] }, { keysOnly: true, offset: 999 });
    expect(titles).toEqual(['SEARCH cards USING COVERING INDEX cards_by_title (project_id=?)']);

    // One environment's cards: its index per sort (titles too), one range per status, then each
    // row's card by id.
    for (const sort of [
      'last_seen',
      'first_seen',
      'count',
      'severity',
      'priority',
      'title',
    ] as const) {
      const after = sort === 'title' ? ['x', 10] : [3, 10];
      const detail = plan({ sort, env: 'production', statuses: ['todo', 'in_progress'], after });
      const key = {
        last_seen: 'last_seen_at',
        first_seen: 'first_seen_at',
        count: 'occurrence_count',
        severity: 'severity_rank',
        priority: 'priority_rank',
        title: 'title',
      }[sort];
      expect(detail.filter((d) => d.startsWith('SEARCH'))).toEqual([
        `SEARCH e USING INDEX card_envs_by_${sort} (project_id=? AND env=? AND status=? AND (${key},card_id)<(?,?))`,
        'SEARCH c USING INTEGER PRIMARY KEY (rowid=?)',
        `SEARCH e USING INDEX card_envs_by_${sort} (project_id=? AND env=? AND status=? AND (${key},card_id)<(?,?))`,
        'SEARCH c USING INTEGER PRIMARY KEY (rowid=?)',
      ]);
      expect(detail.join('\n')).not.toContain('TEMP B-TREE');
    }

    // The few cards a search found: read by id (no walk of a sort index), then sorted.
    const byIds = plan({ statuses: ['todo', 'done'] }, { ids: [3, 5, 8], keys: true });
    expect(byIds.filter((d) => /^(SEARCH|SCAN) cards/.test(d))).toEqual([
      'SEARCH cards USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    const envIds = plan({ env: 'production' }, { ids: [3, 5, 8], keys: true });
    expect(envIds.filter((d) => /^(SEARCH|SCAN) (e|c)\b/.test(d))).toEqual([
      'SEARCH c USING INTEGER PRIMARY KEY (rowid=?)',
      'SEARCH e USING PRIMARY KEY (card_id=? AND env=?)',
    ]);
    db.close();
  });
});
