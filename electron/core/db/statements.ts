// One prepared statement per SQL text per connection: preparing is the slow part of a query, and a
// statement belongs to the connection that prepared it, hence a WeakMap keyed by the connection.

import type Database from 'better-sqlite3';
import type { Db } from './open.ts';

const caches = new WeakMap<Db, Map<string, Database.Statement>>();

export function statement(db: Db, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}
