import { openSqlite } from '../../src/store/sqlite/driver.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { report, type Service, spawnService } from '../helpers.ts';
import { STORE_KIND } from '../store-kind.ts';

// Black-box, against the built service: lone surrogates in text fields, line_number bounds.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService({ bodyTimeoutMs: 1000, secondProject: true });
});
afterAll(() => svc?.close());

describe('lone surrogates (replaced by U+FFFD before validation, dedup and storage)', () => {
  it('stores valid UTF-8 in every text field and tag, and dedups on what is stored', async () => {
    const raw = (title: string, extra = '') =>
      `{"severity":"major","title":"${title}","description":"d \\udfff e","tags":["t\\ud801",` +
      `"t\\udc02"],"file_name":"f\\ud800.ts"${extra}}`;
    const first = await svc.post(raw('Lone \\ud800'), svc.bearer());
    expect(first.status).toBe(201);
    const card = (await first.json()).data;
    expect(card.title).toBe('Lone \ufffd');
    expect(card.description).toBe('d \ufffd e');
    expect(card.tags).toEqual(['t\ufffd']);
    const second = await svc.post(raw('Lone \\udc00'), svc.bearer());
    expect([second.status, (await second.json()).deduplicated]).toEqual([200, true]);

    const { cards, variants } = await storedBytes(svc);
    expect(cards).toHaveLength(1);
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const value of Object.values(cards[0]!)) expect(() => strict.decode(value)).not.toThrow();
    expect(strict.decode(cards[0]!.t)).toBe('Lone \ufffd');
    expect(variants.length).toBeGreaterThan(0);
    for (const row of variants) {
      for (const value of Object.values(row))
        if (value) expect(() => strict.decode(value)).not.toThrow();
    }
  });
});

/** The stored bytes of the `Lone …` card and its variants, read from the database itself. */
async function storedBytes(service: Service) {
  // SQLite stores text as sent; PostgreSQL checks the encoding itself, and convert_to shows the bytes.
  const bytes = (column: string) =>
    STORE_KIND === 'postgres' ? `convert_to(${column}, 'UTF8')` : `CAST(${column} AS BLOB)`;
  const cardsSql = `SELECT ${bytes('title')} AS t, ${bytes('description')} AS d, ${bytes('tags::text')} AS g,
      ${bytes('file_name')} AS f FROM cards WHERE title LIKE 'Lone %'`;
  const variantsSql = `SELECT ${bytes('v.title')} AS t, ${bytes('v.description')} AS d,
      ${bytes('v.file_name')} AS f FROM variants v JOIN cards c ON c.id = v.card_id
      WHERE c.title LIKE 'Lone %' AND v.aggregate = 0`;
  if (STORE_KIND === 'postgres') {
    const client = new pg.Client({ connectionString: service.databaseUrl });
    await client.connect();
    try {
      const cards = (await client.query(cardsSql)).rows as Record<string, Buffer>[];
      const variants = (await client.query(variantsSql)).rows as Record<string, Buffer | null>[];
      return { cards, variants };
    } finally {
      await client.end();
    }
  }
  const db = openSqlite(join(service.dataDir, 'svc.sqlite'), { readonly: true });
  try {
    const sqliteSql = (sql: string) => sql.replace('tags::text', 'tags');
    return {
      cards: db.prepare(sqliteSql(cardsSql)).all() as Record<string, Buffer>[],
      variants: db.prepare(variantsSql).all() as Record<string, Buffer | null>[],
    };
  } finally {
    db.close();
  }
}

describe('line_number is a positive 32-bit integer (contract 2.1, spec maximum)', () => {
  it('2147483647 is kept; 2147483648, 2^63 and 1e300 are 422', async () => {
    const ok = await svc.post(report({ title: 'Max line', line_number: 2147483647 }), svc.bearer());
    expect(ok.status).toBe(201);
    expect((await ok.json()).data.line_number).toBe(2147483647);
    for (const line of ['2147483648', '9223372036854775808', '1e300']) {
      const r = await svc.post(
        `{"severity":"major","title":"Line ${line}","line_number":${line}}`,
        svc.bearer(),
      );
      expect(r.status, line).toBe(422);
      expect(Object.keys((await r.json()).errors)).toEqual(['line_number']);
    }
  });
});
