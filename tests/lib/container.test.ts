import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Container, token } from '../../src/platform/lib/index.ts';

const A = token<{ b: unknown }>('a');
const B = token<{ a: unknown }>('b');
const N = token<number>('n');

test('a service is made once, on first request, from the services it asks for', () => {
  let made = 0;
  const c = new Container().value(N, 41).provide(A, (c) => ({ b: c.get(N) + 1 + made++ }));
  assert.equal(made, 0, 'nothing is made before it is asked for');
  assert.equal(c.get(A).b, 42);
  assert.equal(c.get(A), c.get(A));
  assert.equal(made, 1);
});

test('a missing provider and a dependency cycle fail at start, naming the chain', () => {
  const missing = new Container().provide(A, (c) => ({ b: c.get(N) }));
  assert.throws(() => missing.get(A), /nothing provides n \(asked for by a\)/);
  const cyclic = new Container().provide(A, (c) => ({ b: c.get(B) })).provide(B, (c) => ({ a: c.get(A) }));
  assert.throws(() => cyclic.get(A), /dependency cycle: a -> b -> a/);
});

test('a token has one provider; an override replaces it only before first use', () => {
  const c = new Container().value(N, 1);
  assert.throws(() => c.value(N, 2), /n is provided twice/);
  c.override(N, () => 3);
  assert.equal(c.get(N), 3);
  assert.throws(() => c.override(N, () => 4), /already in use/);
});
