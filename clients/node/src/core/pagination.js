/**
 * What a list method returns: await it for one page (`{object, data, hasMore}`), or iterate it
 * with `for await` to walk every item across pages (DESIGN.md "Lists": newest first, cursors
 * `starting_after` / `ending_before`). The first page is fetched once, on first use.
 */
export class PagePromise {
  constructor(fetchPage, params) {
    this._fetchPage = fetchPage;
    this._params = { ...(params ?? {}) };
    this._first = null;
  }

  _firstPage() {
    this._first ??= this._fetchPage(this._params);
    return this._first;
  }

  then(onFulfilled, onRejected) {
    return this._firstPage().then(onFulfilled, onRejected);
  }

  catch(onRejected) {
    return this._firstPage().catch(onRejected);
  }

  finally(onFinally) {
    return this._firstPage().finally(onFinally);
  }

  get [Symbol.toStringTag]() {
    return 'PagePromise';
  }

  async *[Symbol.asyncIterator]() {
    // Paging backwards (ending_before) walks toward newer items; the next cursor is the page's first id.
    const backwards = this._params.endingBefore !== undefined;
    let params = this._params;
    let page = await this._firstPage();
    for (;;) {
      yield* page.data;
      if (!page.hasMore || page.data.length === 0) return;
      params = backwards
        ? { ...params, endingBefore: page.data[0].id }
        : { ...params, startingAfter: page.data[page.data.length - 1].id };
      page = await this._fetchPage(params);
    }
  }

  /** Every item across pages, stopping after `limit` items (required, so a huge list cannot exhaust memory by accident). */
  async autoPagingToArray({ limit }) {
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError('autoPagingToArray needs {limit: positive integer}');
    const out = [];
    for await (const item of this) {
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }
}
