import type { SelectQueryBuilder } from 'kysely';
import type { ListQueryT } from './common.schemas.ts';

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/**
 * Cursor paging over time-sortable ids, newest first (DESIGN.md "Lists"): starting_after moves to
 * older items, ending_before to newer ones. The query builder must already be filtered to the
 * tenant; `idColumn` is the ULID-bodied id column.
 */
export async function paginate<DB, TB extends keyof DB, O extends { id: string }>(
  qb: SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
  q: ListQueryT,
): Promise<Page<O>> {
  const limit = q.limit ?? 20;
  const col = idColumn as any;
  if (q.ending_before) {
    const rows = await qb.where(col, '>', q.ending_before).orderBy(col, 'asc').limit(limit + 1).execute();
    const has_more = rows.length > limit;
    return { object: 'list', data: rows.slice(0, limit).reverse(), has_more };
  }
  let sel = qb;
  if (q.starting_after) sel = sel.where(col, '<', q.starting_after);
  const rows = await sel.orderBy(col, 'desc').limit(limit + 1).execute();
  return { object: 'list', data: rows.slice(0, limit), has_more: rows.length > limit };
}

export function mapPage<A, B>(page: Page<A>, fn: (a: A) => B): Page<B> {
  return { object: 'list', data: page.data.map(fn), has_more: page.has_more };
}

/**
 * The same cursor contract over rows already loaded and filtered in memory, newest first (for
 * small per-tenant sets whose visibility is decided in code, e.g. keys and webhook endpoints of a
 * location-restricted key).
 */
export function paginateRows<O extends { id: string }>(rowsNewestFirst: O[], q: ListQueryT): Page<O> {
  const limit = q.limit ?? 20;
  if (q.ending_before) {
    const newer = rowsNewestFirst.filter((r) => r.id > q.ending_before!);
    return { object: 'list', data: newer.slice(Math.max(0, newer.length - limit)), has_more: newer.length > limit };
  }
  const from = q.starting_after ? rowsNewestFirst.filter((r) => r.id < q.starting_after!) : rowsNewestFirst;
  return { object: 'list', data: from.slice(0, limit), has_more: from.length > limit };
}
