import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { readPeopleQuestion } from '../../src/org/scenes/query/people-questions.ts';
import { normaliseQuestion } from '../../src/org/scenes/query/query-tokenizer.ts';
import { answer, ask, makeDetection, ny, refused } from './scene-fixtures.ts';

/**
 * The general causes behind round F's scene misses (docs/decisions.md, "Scene questions: round F's
 * causes"), each asked in other words than the set's: who a described person is (refused: no
 * record says who someone is), "the most trucks" (a count of every vehicle, said so), "has it got
 * quieter since 5pm" (a trend over the span), and a place word with one letter dropped.
 */

const COUNTS: Array<[string, number]> = [
  ['07:50', 0],
  ['08:00', 4],
  ['08:30', 12],
  ['09:00', 25],
  ['09:20', 31],
  ['09:40', 18],
  ['10:00', 9],
  ['10:10', 7],
];
const LOBBY: DetectionRecord[] = COUNTS.map(([t, v]) => makeDetection('person_count', ny(t), { value: v }));
const DOCK = { location: 'loading_dock' };
const VEHICLES: DetectionRecord[] = [
  ['08:00', 1],
  ['08:40', 3],
  ['09:10', 4],
  ['09:50', 2],
].map(([t, n]) => makeDetection('vehicle', ny(t as string), { count: n as number, location: 'loading_dock' }));

test('"who is <a described person>" asks for an identity, which no record gives: refused, saying what can be answered', () => {
  for (const q of [
    'who is the unrecognised visitor in the lobby?',
    "who's that stranger by the door",
    'Who was the unknown man this morning?',
    'who are those unidentified people at reception',
  ]) {
    const r = readPeopleQuestion(q, []);
    assert.equal(r?.kind, 'cannot', q);
    assert.match(r?.kind === 'cannot' ? r.reason : '', /^I can't say who ".+" is: an unrecognized person is one face recognition could not match/, q);
    assert.match(r?.kind === 'cannot' ? r.reason : '', /"when was an unrecognized person last seen\?"/, q);
  }
  for (const q of ['who is this guy at the front desk?', 'who was that woman', 'who is the person in the lobby']) {
    const r = readPeopleQuestion(q, [{ id: 'per_1', name: 'Maria Lopez' }]);
    assert.equal(r?.kind, 'cannot', q);
    assert.match(r?.kind === 'cannot' ? r.reason : '', /name only those face recognition matches .* "who was here this morning\?"/, q);
  }
  // who was somewhere, or at a moment, is still a list of who was there (names where recognized)
  assert.deepEqual(readPeopleQuestion('who is in the lobby?', []), { kind: 'who', rewritten: 'was anyone in the lobby?' });
  assert.deepEqual(readPeopleQuestion('who was here this morning?', []), { kind: 'who', rewritten: 'was anyone here this morning?' });
  assert.equal(readPeopleQuestion('who was that at the gate last night?', [])?.kind, 'who');
  assert.equal(readPeopleQuestion('who was the person who came in at 8:05?', [])?.kind, 'who');
  // picked by order stays its own refusal
  assert.match((readPeopleQuestion('who was the last visitor to leave?', []) as { reason: string }).reason, /^I can't tell who/);
});

test('the most, the fewest or the average of a kind of vehicle is the count of every vehicle, said so', () => {
  for (const q of ["what's the most trucks we had at the dock at once this morning?", 'what was the highest number of vans at the dock since 8?']) {
    const i = ask(q, DOCK);
    assert.equal(i.metric, 'vehicles', q);
    assert.equal(i.aggregate, 'peak', q);
    assert.match(answer(q, VEHICLES, DOCK), /\b4 vehicles\b.*09:10.*cannot tell "(?:trucks|vans)" from other vehicles/, q);
  }
  assert.equal(ask('what were the fewest lorries at the dock this morning?', DOCK).aggregate, 'minimum');
  assert.equal(ask('what was the average number of trucks at the dock since 8?', DOCK).aggregate, 'average');
  // a yes/no whether any of a kind were there is every vehicle counted, never a yes (since round J,
  // docs/decisions.md, "Round J: scene questions"); one vehicle of a kind stays refused
  const any = ask('were there trucks at the dock?', DOCK);
  assert.equal(any.aggregate, 'arrivals');
  assert.equal(any.yes_no, false);
  refused('is the most recent vehicle a truck?', DOCK);
});

test('"has it got quieter since 9", "did it become busier": a change over the span, a trend', () => {
  for (const q of [
    'has the lobby got quieter since 9:20?',
    'did it become quieter after 9:20?',
    'has it gotten emptier since 9:20',
    'is the lobby quieter since 9:20?',
  ]) {
    const i = ask(q);
    assert.equal(i.aggregate, 'trend', q);
    assert.match(answer(q, LOBBY), /^Yes, the number of people in the lobby has been falling .*from 31 people at 09:20 to 7 at 10:10/, q);
  }
  assert.match(answer('has it got busier since 9:20?', LOBBY), /^No\b/);
  // a comparative with nothing to compare with is still asked about
  refused('is it quieter?');
  refused('has it been quieter?');
});

test('a three-letter word that is a word of the place with one letter left out is that word, and nothing else is', () => {
  assert.equal(normaliseQuestion('how many peple at the main gte at 5pm', 'main_gate'), 'how many people at the main gate at 5pm');
  assert.equal(normaliseQuestion('any cars at the dck', 'loading_dock'), 'any cars at the dock');
  // not towards a word of another place, not a real word, not a word two letters short
  assert.equal(normaliseQuestion('any cars at the gte', 'loading_dock'), 'any cars at the gte');
  assert.equal(normaliseQuestion('is the gate wet', 'main_gate'), 'is the gate wet');
  assert.equal(normaliseQuestion('anyone at the gt', 'main_gate'), 'anyone at the gt');
  assert.equal(ask('how many people at the main gte at 9:20', { location: 'main_gate' }).metric, 'people');
});
