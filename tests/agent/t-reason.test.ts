/**
 * Round T, nouns and unknown words inside reasons (docs/decisions.md, "Round T: reasons"): a word no lexicon knows
 * inside a reason whose subject and verb are known ("…, we have friends over for the fiesta"), a word no lexicon knows
 * before the noun of a reason's subject ("…, the zorbish cows are coming"), a group of workers with "are" ("…, the
 * fencing crew are working out there") and the neighbours' side ("the lads next door", "up the road") are no part of
 * the request. The phrasings beside them that must still ask are checked too. Phrasings are our own, not the set's.
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

test('a word no lexicon knows inside a reason whose frame is known is the reason’s', async () => {
  await expectWatch('watch the driveway tonight, we have friends over for the quinceañera', ['sen_driveway_cam']);
  await expectWatch('watch the garage from 8pm to 11pm, we have got people round for a hangi', ['sen_garage_motion']);
  await expectWatch('watch the backyard tonight because we are hosting a braai', ['sen_backyard_cam']);
  // must not fire: where a time, a number, a negation or a second request could stand, or with no frame, it is asked
  await expectAsked('watch the driveway, we have friends over till zorp', /zorp/);
  await expectAsked('watch the driveway, we have friends over for zorp', /zorp/);
  await expectAsked('watch the driveway tonight, we have got guests and zorp the kitchen');
  await expectAsked('watch the driveway tonight, we zorp the nursery');
  await expectAsked('watch the driveway tonight, we have guests, will you zorp it after?');
  await expectAsked('watch the driveway tonight, the kids are out and we flurb them');
});

test('a word no lexicon knows before the noun of a reason’s subject is the reason’s', async () => {
  await expectWatch('watch the backyard for 2 hours, the zorbish cows are coming', ['sen_backyard_cam']);
  await expectWatch('watch the driveway tonight, the flurby pipes are leaking', ['sen_driveway_cam']);
  // must not fire: a place of the home in the reason is asked about
  await expectAsked('watch the driveway tonight, the zorbish cows are in the nursery');
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
