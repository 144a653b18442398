/**
 * The composition root's small typed container. A token names one service and
 * carries its type; a module provides the tokens it owns, and asks the container for the ones it
 * needs. Services are made once, on first request, so modules can be provided in any order; a
 * dependency cycle or a token nobody provides fails at start with the chain that led to it.
 */
export interface Token<T> {
  readonly name: string;
  /** never set: carries T for the compiler */
  readonly __type?: T;
}

export function token<T>(name: string): Token<T> {
  return Object.freeze({ name }) as Token<T>;
}

type Maker<T> = (c: Container) => T;

export class Container {
  private readonly makers = new Map<Token<unknown>, Maker<unknown>>();
  private readonly made = new Map<Token<unknown>, unknown>();
  private readonly making: Token<unknown>[] = [];

  /** How to make the service behind a token; one provider per token. */
  provide<T>(t: Token<T>, make: Maker<T>): this {
    if (this.makers.has(t)) throw new Error(`${t.name} is provided twice`);
    this.makers.set(t, make);
    return this;
  }

  /** A ready value (configuration, the clock, the opened database). */
  value<T>(t: Token<T>, v: T): this {
    return this.provide(t, () => v);
  }

  /** Replaces a provider before anything was made from it (tests, the CLI, a configured planner). */
  override<T>(t: Token<T>, make: Maker<T>): this {
    if (this.made.has(t)) throw new Error(`${t.name} is already in use; override it before it is first asked for`);
    this.makers.set(t, make);
    return this;
  }

  has(t: Token<unknown>): boolean {
    return this.makers.has(t);
  }

  get<T>(t: Token<T>): T {
    if (this.made.has(t)) return this.made.get(t) as T;
    if (this.making.includes(t)) {
      throw new Error(`dependency cycle: ${[...this.making.slice(this.making.indexOf(t)), t].map((x) => x.name).join(' -> ')}`);
    }
    const make = this.makers.get(t);
    if (!make) throw new Error(`nothing provides ${t.name}${this.making.length ? ` (asked for by ${this.making.at(-1)!.name})` : ''}`);
    this.making.push(t);
    try {
      const v = make(this) as T;
      this.made.set(t, v);
      return v;
    } finally {
      this.making.pop();
    }
  }
}

/**
 * A module's services: `provide` registers the tokens it owns; `install`, run once every module has
 * provided, connects it to others (pipeline hooks, gates, listeners) and loads what it caches, in the
 * order the composition root lists modules.
 */
export interface ServiceModule {
  name: string;
  provide(c: Container): void;
  install?(c: Container): void | Promise<void>;
}

export function defineServiceModule(module: ServiceModule): ServiceModule {
  return module;
}
