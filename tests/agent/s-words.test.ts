/**
 * Places and things said in the household's own words (docs/decisions.md, "Before round S: words"): a room word the
 * home does not use that names exactly one of its places by meaning ("the laundry" for the utility room, "the wash
 * house"), the first word of a name said alone ("the laundry" for the laundry room, "the chooks" for the chook pen),
 * regional nouns for the animal a place is named for ("chook" for the chicken coop), and a carport that is no garage.
 * Phrasings are our own, with those where the change must not fire.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

const sensor = (id: string, name: string, kind: string, room: string, muted = false) => ({ id, name, kind, room, muted });
const watch = (id: string, subject: string, sensorIds: string[]) => ({
  id,
  subject,
  sensor_ids: sensorIds,
  starts_at: '2026-11-21T19:00:00.000Z',
  ends_at: '2026-11-22T07:00:00.000Z',
  recurrence: 'daily',
  window: 'every night, 19:00 to 07:00',
});

/** A house with a utility room, a chicken coop and a garage (no carport), and nightly watches on the coop and the pool. */
const house = {
  ...contexts.lisbon,
  now: Date.parse('2026-11-21T13:00:00Z'),
  rooms: ['utility room', 'living room', 'chicken coop', 'workshop', 'kitchen', 'pool', 'garage', 'bike shed'].map((name) => ({ name })),
  sensors: [
    sensor('ut_cam', 'utility room camera', 'camera', 'utility room'),
    sensor('lv_cam', 'living room camera', 'camera', 'living room'),
    sensor('coop_cam', 'coop camera', 'camera', 'chicken coop'),
    sensor('ws_cam', 'workshop camera', 'camera', 'workshop'),
    sensor('k_cam', 'kitchen camera', 'camera', 'kitchen'),
    sensor('pool_cam', 'pool camera', 'camera', 'pool'),
    sensor('g_cam', 'garage camera', 'camera', 'garage'),
    sensor('bs_cam', 'bike shed camera', 'camera', 'bike shed'),
  ],
  boundaries: [],
  watches: [watch('w_coop', 'chicken coop', ['coop_cam']), watch('w_pool', 'pool', ['pool_cam'])],
} as HouseholdContext;

/** A farmhouse that calls its rooms by their own words: a laundry room, a chook pen, a store room, a kids room, a carport. */
const farm = {
  ...house,
  rooms: ['laundry room', 'chook pen', 'store room', 'kids room', 'carport', 'dog kennel', 'dairy'].map((name) => ({ name })),
  sensors: [
    sensor('lr_motion', 'laundry room motion', 'motion', 'laundry room'),
    sensor('pen_cam', 'chook pen camera', 'camera', 'chook pen'),
    sensor('store_motion', 'store room motion', 'motion', 'store room'),
    sensor('kids_cam', 'kids room camera', 'camera', 'kids room'),
    sensor('cp_cam', 'carport camera', 'camera', 'carport'),
    sensor('kennel_cam', 'dog kennel camera', 'camera', 'dog kennel'),
    sensor('dairy_cam', 'dairy camera', 'camera', 'dairy'),
  ],
  watches: [watch('w_pen', 'chook pen', ['pen_cam'])],
} as HouseholdContext;

async function one(ctx: HouseholdContext, message: string) {
  const [turn] = await converse(ctx, [message]);
  return turn;
}

async function expectWatch(ctx: HouseholdContext, message: string, sensorIds: string[], place?: string) {
  const turn = await one(ctx, message);
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  assert.equal(turn.changes[0].tool, 'create_watch', `${message}: ${turn.reply}`);
  assert.deepEqual(turn.changes[0].args.sensor_ids, sensorIds, `${message}: ${turn.reply}`);
  if (place) assert.match(turn.reply, new RegExp(place), `${message}: the reply names the place used`);
}

async function expectStandDown(ctx: HouseholdContext, message: string, watchId: string) {
  const turn = await one(ctx, message);
  assert.deepEqual(
    turn.changes.map((c) => [c.tool, c.args.watch_id]),
    [['stand_down_watch', watchId]],
    `${message}: ${turn.reply}`,
  );
}

async function expectAsked(ctx: HouseholdContext, message: string) {
  const turn = await one(ctx, message);
  assert.equal(turn.changes.length, 0, `${message}: ${JSON.stringify(turn.changes)} ${turn.reply}`);
}

test('a room word the home does not use names the one place it means, and the reply says which', async () => {
  await expectWatch(house, 'watch the laundry tonight', ['ut_cam'], 'utility room');
  await expectWatch(house, 'keep an eye on the wash house till 11pm', ['ut_cam'], 'utility room');
  await expectWatch(house, 'watch the family room tonight', ['lv_cam'], 'living room');
  await expectWatch(house, 'watch the hen house tonight', ['coop_cam'], 'chicken coop');
});

test('"X house" is never the whole home when the two words name another kind of place', async () => {
  await expectAsked(house, 'watch the boat house tonight');
  await expectAsked(house, 'watch the green house tonight');
  // must not fire: the house itself
  await expectWatch(
    house,
    'watch the house tonight',
    house.sensors.map((s) => s.id),
  );
  await expectWatch(
    house,
    'watch my whole house tonight',
    house.sensors.map((s) => s.id),
  );
});

test('a carport is no garage: said in a home with only a garage, it is asked, never acted on', async () => {
  await expectAsked(house, 'watch the carport tonight');
  await expectAsked(house, 'keep an eye on the car port until 6am');
});

test('the first word of a room name said alone names that room when the rest is a category word or it is the animal kept there', async () => {
  await expectWatch(farm, 'watch the laundry till 11pm', ['lr_motion'], 'laundry room');
  await expectWatch(farm, 'keep an eye on the store tonight', ['store_motion'], 'store room');
  await expectStandDown(farm, 'stop watching the chooks', 'w_pen');
  await expectStandDown(farm, 'call off the chook watch, the fox is gone', 'w_pen');
  await expectWatch(farm, 'watch the dogs tonight', ['kennel_cam'], 'dog kennel');
  // must not fire: people are no room ("the kids" are not the kids room), nor a word of no name
  const kids = await one(farm, 'watch the kids tonight');
  assert.ok(!kids.changes.some((c) => (c.args.sensor_ids as string[] | undefined)?.includes('kids_cam')), kids.reply);
});

test('a regional noun for an animal names the place kept for it, and is never read as a slip of a name', async () => {
  await expectStandDown(house, 'stop watching the chooks', 'w_coop');
  await expectStandDown(house, 'call off the chook watch', 'w_coop');
  const turn = await one(house, 'watch the chooks tonight');
  assert.deepEqual(turn.changes[0]?.args.sensor_ids, ['coop_cam'], turn.reply);
  assert.doesNotMatch(turn.reply, /I read "chook/, turn.reply);
  await expectWatch(house, 'watch the chickens tonight', ['coop_cam']);
});

/** A corner shop with a one-off watch on the stockroom tonight and a nightly one on the yard. */
const shop = {
  ...house,
  now: Date.parse('2026-11-21T15:00:00Z'),
  rooms: ['till', 'stockroom', 'yard', 'shop floor'].map((name) => ({ name })),
  sensors: [
    sensor('till_cam', 'till camera', 'camera', 'till'),
    sensor('stock_cam', 'stockroom camera', 'camera', 'stockroom'),
    sensor('yard_cam', 'yard camera', 'camera', 'yard'),
    sensor('floor_cam', 'shop floor camera', 'camera', 'shop floor'),
  ],
  watches: [
    {
      ...watch('w_stock', 'stockroom', ['stock_cam']),
      starts_at: '2026-11-21T22:00:00.000Z',
      ends_at: '2026-11-22T09:00:00.000Z',
      recurrence: 'none',
      window: '22:00 to 09:00',
    },
    watch('w_yard', 'yard', ['yard_cam']),
  ],
} as HouseholdContext;

test('"no need to watch X tonight" stands down a one-off watch that is tonight, and still asks of one that repeats', async () => {
  await expectStandDown(shop, 'no need to watch the stockroom tonight', 'w_stock');
  await expectStandDown(shop, "we're doing a late stocktake so no need for the stockroom watch tonight", 'w_stock');
  await expectStandDown(shop, 'stop watching the stockroom tonight', 'w_stock');
  // must not fire: a watch every night loses only tonight, which the tools cannot do
  await expectAsked(shop, 'no need to watch the yard tonight');
  await expectAsked(shop, 'stop watching the yard just for tonight');
});

test('a place and a time closed by thanks are a request', async () => {
  await expectWatch(shop, 'stockroom tonight thanks', ['stock_cam']);
  await expectWatch(shop, 'yard tonight cheers', ['yard_cam']);
  // must not fire: thanks alone is no request
  await expectAsked(shop, 'ok cool thanks');
});
