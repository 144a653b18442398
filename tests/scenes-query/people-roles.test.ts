import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, refused } from './scene-fixtures.ts';

/**
 * Who the people are (docs/decisions.md, "Round I: words"): a role the cameras cannot see
 * ("staff", "employees", "guards") or a part picked out of the people counted ("how many of them
 * are visitors?") is refused, never answered with the count of everyone; the people at a place
 * said as the plain subject ("customers in the lobby") are still counted.
 */

test('a role no camera sees is refused, never answered with everyone', () => {
  for (const query of [
    'how many of them are staff?',
    'how many employees are in the lobby right now?',
    'is any staff member here?',
    'how many workers came in this morning?',
    'were there any security guards in the lobby at 9?',
    'how many of those are tourists?',
  ]) {
    const reason = refused(query);
    assert.match(reason, /cannot tell|not/, `${query}: ${reason}`);
    assert.doesNotMatch(reason, /There (is|are) \d/, query);
  }
});

test('the refusal of a role says that the recognized are not a role either, and names what can be asked', () => {
  const reason = refused('how many staff are in the lobby?');
  assert.match(reason, /"staff"/);
  assert.match(reason, /enrolled/);
  assert.match(reason, /how many people/);
});

test('people picked out of the people counted are refused, whatever word names them', () => {
  for (const query of [
    'are any of them visitors?',
    'how many of the people here are customers?',
    'how many people are guests?',
    'how many of them are children?',
  ]) {
    refused(query);
  }
});

test('what people wear is no kind the cameras count', () => {
  for (const query of ['how many people in uniform are there?', 'how many uniformed people came in today?']) refused(query);
});

test('the people at a place, said as the plain subject, are still counted', () => {
  for (const query of [
    'how many customers are in the lobby now?',
    'any visitors since 9am?',
    'how many guests are in the lobby?',
    'visitors today: how many of them stayed?',
  ]) {
    assert.match(ask(query).summary, /people/, query);
  }
});

test('a staff car park is a place, not a role', () => {
  assert.match(ask('how many cars are in the staff car park right now?', { location: 'staff_car_park' }).summary, /vehicle/);
});
