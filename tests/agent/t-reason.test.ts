/**
 * Round T, nouns inside reasons (docs/decisions.md, "Round T: reasons"): "because" with no comma opens a reason, a
 * group of workers with "are" ("…, the fencing crew are working out there") and the neighbours' side ("the lads next
 * door", "up the road") are no part of the request; a word no lexicon knows inside a reason still asks. The phrasings
 * beside them that must still ask are checked too. Phrasings are our own, not the set's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const home = contexts.lisbon;

async function expectWatch(message: string, sensorIds: string[]) {
  const [turn] = await converse(home, [message]);
  assert.deepEqual(
    turn.changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['create_watch', sensorIds]],
    `${message}: ${turn.reply}`,
  );
}

async function expectAsked(message: string, says?: RegExp) {
  const [turn] = await converse(home, [message]);
  assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
  if (says) assert.match(turn.reply, says, message);
}

test('a word no lexicon knows inside a reason still asks, naming the word (tests/agent/round-m-cover.test.ts)', async () => {
  await expectAsked('watch the driveway tonight, we have friends over for the blorpfest', /blorpfest/);
  await expectAsked('watch the garage from 8pm to 11pm, we have got people round for a hangi', /hangi/);
  await expectAsked('watch the backyard for 2 hours, the zorbish cows are coming', /zorbish/);
  await expectAsked('watch the driveway, we have friends over till zorp', /zorp/);
  await expectAsked('watch the driveway tonight, we have got guests and zorp the kitchen');
  await expectAsked('watch the driveway tonight, the zorbish cows are in the nursery');
});

test('"because" with no comma opens a reason as a comma does', async () => {
  await expectWatch('watch the backyard tonight because we are hosting a barbecue', ['sen_backyard_cam']);
  await expectWatch('watch the driveway tonight because the neighbours are away', ['sen_driveway_cam']);
});

test('a group of workers with "are" is a reason’s subject', async () => {
  await expectWatch('watch the driveway until sunset, the fencing crew are working out there', ['sen_driveway_cam']);
  await expectWatch('watch the backyard tonight, the road gang were digging', ['sen_backyard_cam']);
  // must not fire: the reason names a place of the home
  await expectAsked('watch the driveway tonight, the fencing crew are working in the garage');
});

test('the neighbours’ side ("next door", "up the road") is one phrase, no place to watch', async () => {
  await expectWatch('watch the backyard tonight because the lads next door are having a party', ['sen_backyard_cam']);
  await expectWatch('watch the driveway tonight because the people up the road are having a bonfire', ['sen_driveway_cam']);
  await expectWatch('watch the garage tonight, the folks down the street have a party', ['sen_garage_motion']);
  // must not fire: a door of the home is still a place
  await expectAsked('watch the door tonight');
});
