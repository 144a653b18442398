export interface Page<T> {
  object: 'list';
  data: T[];
  hasMore: boolean;
}

/** Await for one page; `for await` over it for every item across pages. */
export declare class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private constructor();
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B>;
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B>;
  finally(onFinally?: (() => void) | null): Promise<Page<T>>;
  [Symbol.asyncIterator](): AsyncIterator<T>;
  autoPagingToArray(options: { limit: number }): Promise<T[]>;
}
