/** `responders_notified` → `respondersNotified` at the type level (mirrors camelCaseKey: `_` + lower-case letter). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? Tail extends Capitalize<Tail>
    ? `${Head}_${CamelCase<Tail>}`
    : `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** Deeply renames object keys to camelCase (the shape the client returns and accepts). */
export type Camelize<T> = T extends readonly (infer U)[]
  ? Camelize<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelCase<K> : K]: Camelize<T[K]> }
    : T;

export declare function camelCaseKey(key: string): string;
export declare function snakeCaseKey(key: string): string;
export declare function camelizeKeys<T>(value: T): Camelize<T>;
export declare function snakeizeKeys(value: unknown): unknown;
