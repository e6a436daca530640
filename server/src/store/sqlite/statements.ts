import type Database from 'better-sqlite3';

/** Prepares each SQL text once per connection (board queries are built from a few shapes). */
export type Prepared = (sql: string) => Database.Statement;

export function statementCache(db: Database.Database): Prepared {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
