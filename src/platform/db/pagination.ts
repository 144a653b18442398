import type { SelectQueryBuilder } from 'kysely';

/**
 * Cursor paging for repositories (docs/design.md "Lists"): newest first over time-sortable ids. A list
 * query's paging part is plain data, so services pass it through without knowing HTTP or Kysely.
 */
export interface PageQuery {
  /** 1–100, default 20 (the HTTP schema bounds it) */
  limit?: number;
  /** an id: the page holds items older than it */
  starting_after?: string;
  /** an id: the page holds items newer than it */
  ending_before?: string;
}

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export const DEFAULT_PAGE_LIMIT = 20;
/** The largest page a list answers (its schema's `limit` maximum). */
export const MAX_PAGE_LIMIT = 100;

/**
 * Cursor paging over time-sortable ids, newest first: starting_after moves to older items,
 * ending_before to newer ones. The query builder must already be filtered to the tenant;
 * `idColumn` is the ULID-bodied id column.
 */
export async function paginate<DB, TB extends keyof DB, O extends { id: string }>(
  qb: SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
  q: PageQuery,
): Promise<Page<O>> {
  const limit = q.limit ?? DEFAULT_PAGE_LIMIT;
  // a column named at run time: Kysely cannot type it against a generic table
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment
  const col = idColumn as any;
  if (q.ending_before) {
    const rows = await qb
      .where(col, '>', q.ending_before)
      .orderBy(col, 'asc')
      .limit(limit + 1)
      .execute();
    const has_more = rows.length > limit;
    return { object: 'list', data: rows.slice(0, limit).reverse(), has_more };
  }
  let sel = qb;
  if (q.starting_after) sel = sel.where(col, '<', q.starting_after);
  const rows = await sel
    .orderBy(col, 'desc')
    .limit(limit + 1)
    .execute();
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
export function paginateRows<O extends { id: string }>(rowsNewestFirst: O[], q: PageQuery): Page<O> {
  const limit = q.limit ?? DEFAULT_PAGE_LIMIT;
  if (q.ending_before) {
    const newer = rowsNewestFirst.filter((r) => r.id > q.ending_before!);
    return { object: 'list', data: newer.slice(Math.max(0, newer.length - limit)), has_more: newer.length > limit };
  }
  const from = q.starting_after ? rowsNewestFirst.filter((r) => r.id < q.starting_after!) : rowsNewestFirst;
  return { object: 'list', data: from.slice(0, limit), has_more: from.length > limit };
}
