/**
 * The agent's direct requests (src/home/agent/direct-intents.ts): a sensor added by its MQTT topic
 * alone on the household's default broker, and notification routing said in words. What must act
 * acts with exactly these arguments; what is unclear asks and changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { runPlan } from '../../src/home/agent/plan-executor.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { HouseholdSimulator } from './household-simulator.ts';

function home(over: Partial<HouseholdContext> = {}): HouseholdContext {
  return {
    now: Date.parse('2026-11-20T12:00:00Z'),
    timeZone: 'Europe/Lisbon',
    location: { lat: 38.72, lon: -9.14, city: 'Lisbon' },
    rooms: [{ name: 'garage' }, { name: 'driveway' }, { name: 'back door' }, { name: 'nursery' }],
    sensors: [
      { id: 'sen_garage', name: 'Garage camera', kind: 'camera', room: 'garage', muted: false },
      { id: 'sen_drive', name: 'Driveway camera', kind: 'camera', room: 'driveway', muted: false },
      { id: 'sen_nursery', name: 'Nursery camera', kind: 'camera', room: 'nursery', muted: false },
    ],
    boundaries: [],
    watches: [],
    conversation: { turns: [] },
    ...over,
  };
}
const withBroker = (over: Partial<HouseholdContext> = {}) => home({ mqttBroker: 'mqtt://192.168.1.10:1883', ...over });

// --- sensors by topic ---

const adds: Array<[string, { name: string; kind: string; room: string; topic: string }]> = [
  ["add the back door sensor, it's zigbee2mqtt/back_door", { name: 'back door sensor', kind: 'contact', room: 'back door', topic: 'zigbee2mqtt/back_door' }],
  [
    'add the hallway motion sensor on topic zigbee2mqtt/hall_pir',
    { name: 'hallway motion sensor', kind: 'motion', room: 'hallway', topic: 'zigbee2mqtt/hall_pir' },
  ],
  [
    'please connect the kitchen window contact, topic zigbee2mqtt/kitchen_window.',
    { name: 'kitchen window contact', kind: 'contact', room: 'kitchen window', topic: 'zigbee2mqtt/kitchen_window' },
  ],
  [
    'pair zigbee2mqtt/0x00158d0001a2b3c4 as the shed door sensor',
    { name: 'shed door sensor', kind: 'contact', room: 'shed door', topic: 'zigbee2mqtt/0x00158d0001a2b3c4' },
  ],
  [
    'add a motion sensor in the landing, it publishes to z2m/landing_motion',
    { name: 'landing motion sensor', kind: 'motion', room: 'landing', topic: 'z2m/landing_motion' },
  ],
];
for (const [message, args] of adds) {
  test(`by topic, with a default broker: "${message}" adds the sensor`, async () => {
    const ctx = withBroker();
    const plan = planOffline(message, ctx);
    assert.equal(plan.clarification, undefined, plan.clarification);
    assert.deepEqual(
      plan.calls.map((c) => c.tool),
      ['add_sensor_by_topic'],
    );
    assert.deepEqual(plan.calls[0]!.args, args);
    const sim = new HouseholdSimulator(ctx);
    const result = await runPlan(plan, sim);
    assert.equal(result.actions[0]?.type, 'sensor.added');
  });
}

test('by topic, without a default broker: asks for the broker and adds nothing; the answer adds it there', async () => {
  const ctx = home();
  const message = "add the back door sensor, it's zigbee2mqtt/back_door";
  const plan = planOffline(message, ctx);
  assert.equal(plan.calls.length, 0);
  assert.match(plan.clarification!, /MQTT broker's address/);
  assert.match(plan.clarification!, /haven't added anything/);
  // the next turn answers with the broker: the sensor is added at that address
  const next = planOffline('mqtt://192.168.1.10:1883', { ...ctx, conversation: { turns: [{ message, actions: [] }] } });
  assert.deepEqual(
    next.calls.map((c) => [c.tool, c.args]),
    [
      [
        'add_sensor',
        { name: 'back door sensor', kind: 'contact', room: 'back door', source_url: 'mqtt://192.168.1.10:1883/zigbee2mqtt/back_door', source_type: 'mqtt' },
      ],
    ],
  );
});

const topicQuestions: Array<[string, RegExp]> = [
  ['add the back door sensor, it is zigbee2mqtt/+', /wildcard/],
  ['add the garden motion sensor on zigbee2mqtt/#', /wildcard/],
  ["add the back door sensor, it's zigbee2mqtt/back door", /no spaces/],
  ['add the back door sensor, topic "zigbee2mqtt/back door"', /no spaces/],
  ["add the hallway sensor, it's zigbee2mqtt/hall_1", /door or window contact, or a motion sensor/],
  ["add a sensor, it's zigbee2mqtt/thing", /Which room/],
  ['add the cellar leak sensor on zigbee2mqtt/cellar_leak', /leak sensor isn't one I can add/],
  ['add the back door sensor on zigbee2mqtt/a or zigbee2mqtt/b', /one sensor at a time/],
  ['add the porch motion contact sensor, zigbee2mqtt/porch', /contact, or a motion sensor/],
  ["add the back door sensor, it's zigbee2mqtt/back_door and watch it tonight", /didn't follow/],
  ["don't add zigbee2mqtt/back_door", /haven't added anything/],
  ['the back door sensor is zigbee2mqtt/back_door', /Would you like me to add/],
];
for (const [message, expected] of topicQuestions) {
  test(`by topic, unclear: "${message}" asks and adds nothing`, () => {
    const plan = planOffline(message, withBroker());
    assert.deepEqual(plan.calls, [], JSON.stringify(plan.calls));
    assert.match(plan.clarification ?? '', expected);
  });
}

test('by topic: a name the home already has is asked about', () => {
  const ctx = withBroker();
  ctx.sensors.push({ id: 'sen_back', name: 'Back door sensor', kind: 'contact', room: 'back door', muted: false });
  const plan = planOffline("add the back door sensor, it's zigbee2mqtt/back_door_2", ctx);
  assert.equal(plan.calls.length, 0);
  assert.match(plan.clarification!, /already a sensor called the Back door sensor/);
});

for (const message of ['add the garage to the watch, 24/7', 'add the driveway and/or the garage to the watch']) {
  test(`"${message}" has no topic: not a sensor by topic`, () => {
    const plan = planOffline(message, withBroker());
    assert.ok(!plan.calls.some((c) => c.tool === 'add_sensor_by_topic'));
    assert.doesNotMatch(plan.clarification ?? '', /topic|broker/);
  });
}

test('a whole mqtt:// address still goes the general way (add_sensor with the URL)', () => {
  const plan = planOffline('add the back door contact sensor at mqtt://192.168.1.10:1883/zigbee2mqtt/back_door in the back door', withBroker());
  assert.deepEqual(
    plan.calls.map((c) => c.tool),
    ['add_sensor'],
  );
});

// --- notification routing ---

const routes: Array<[string, Record<string, unknown>, Partial<HouseholdContext>?]> = [
  ['notify me only between 11pm and 7am', { quiet_hours: { from: '07:00', to: '23:00' }, paused: false }],
  ['Only send me notifications between 10:30pm and 6:15am please', { quiet_hours: { from: '06:15', to: '22:30' }, paused: false }],
  ["don't notify me between midnight and 6am", { quiet_hours: { from: '00:00', to: '06:00' }, paused: false }],
  ['quiet hours from 22:00 to 07:00 for notifications', { quiet_hours: { from: '22:00', to: '07:00' }, paused: false }],
  ["don't send me the garage ones", { exclude_add: { rooms: ['garage'] } }],
  ['no more notifications from the driveway camera', { exclude_add: { sensors: ['sen_drive'] } }],
  ['stop notifying me about the nursery and the garage', { exclude_add: { rooms: ['nursery', 'garage'] } }],
  ['send me the garage ones again', { exclude_remove: { rooms: ['garage'] } }],
  ['stop the notifications', { paused: true }],
  ['pause my notifications for now', { paused: true }],
  ['turn notifications back on', { paused: false }],
  [
    'send them again',
    { paused: false },
    { conversation: { turns: [{ message: 'stop the notifications', actions: [{ type: 'notification_preferences.set' }] }] } },
  ],
  ['notify me at any time again', { quiet_hours: null }],
  ['stop the notifications for everyone', { scope: 'household', paused: true }],
  ['can you stop the notifications?', { paused: true }],
];
for (const [message, args, over] of routes) {
  test(`routing: "${message}" sets ${JSON.stringify(args)}`, async () => {
    const ctx = home(over);
    const plan = planOffline(message, ctx);
    assert.equal(plan.clarification, undefined, plan.clarification);
    assert.deepEqual(
      plan.calls.map((c) => [c.tool, c.args]),
      [['set_notification_routing', args]],
    );
    const result = await runPlan(plan, new HouseholdSimulator(ctx));
    assert.equal(result.actions[0]?.type, 'notification_preferences.set');
  });
}

const routingQuestions: Array<[string, RegExp]> = [
  ['notify me only between 11 and 7', /morning or the evening/],
  ['notify me only after 11pm', /From when until when/],
  ['only notify me at night', /From when until when/],
  ["don't send me the pool ones", /don't know a room or sensor called "pool"/],
  ['notify me between 11pm and 7am', /only between 11pm and 7am, or not between them/],
  ['notify me less', /not sure how you'd like your notifications changed/],
  ['are my notifications on?', /You asked about your notifications/],
  ['should I stop the notifications?', /You asked about your notifications/],
  ['stop the notifications and watch the garage tonight', /on their own/],
  ["don't send me the garage ones again", /stop notifying you about the garage, or notify you about it again/],
];
for (const [message, expected] of routingQuestions) {
  test(`routing, unsure: "${message}" asks and changes nothing`, () => {
    const plan = planOffline(message, home());
    assert.deepEqual(plan.calls, [], JSON.stringify(plan.calls));
    assert.match(plan.clarification ?? '', expected);
    assert.match(plan.clarification ?? '', /haven't changed your notifications/);
  });
}

test('"send them again" with no notification talk before is not routing', () => {
  const plan = planOffline('send them again', home());
  assert.ok(!plan.calls.some((c) => c.tool === 'set_notification_routing'));
});

for (const message of ['notify me if someone comes to the garage tonight', 'notify me about strangers in the garage tonight']) {
  test(`"${message}" is a watch, not routing`, () => {
    const plan = planOffline(message, home());
    assert.ok(!plan.calls.some((c) => c.tool === 'set_notification_routing'), JSON.stringify(plan));
    assert.doesNotMatch(plan.clarification ?? '', /notifications/);
  });
}

test('"undo that" right after a routing change asks; it never undoes an older change instead', () => {
  const ctx = home({
    watches: [
      {
        id: 'wat_1',
        subject: 'garage',
        sensor_ids: ['sen_garage'],
        starts_at: '2026-11-20T17:00:00Z',
        ends_at: '2026-11-21T07:00:00Z',
        recurrence: 'none',
        window: 'tonight',
      },
    ],
    conversation: {
      turns: [
        { message: 'watch the garage tonight', actions: [{ type: 'watch.created', id: 'wat_1', subject: 'garage' }] },
        { message: 'stop the notifications', actions: [{ type: 'notification_preferences.set' }] },
      ],
    },
  });
  const plan = planOffline('undo that', ctx);
  assert.deepEqual(plan.calls, []);
  assert.match(plan.clarification ?? '', /can't undo that last change/);
});
