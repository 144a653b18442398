import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpretQuery, type Aggregate, type Metric, type QueryContext } from '../../src/org/scenes/query/query.ts';

// Tuesday 10 March 2026, 10:14 in New York (EDT, UTC-4, two days after the DST change).
const TZ = 'America/New_York';
const NOW = Date.parse('2026-03-10T10:14:00-04:00');
const MIN = 60_000;

/** Local New York wall-clock on 2026-03-10 (or another day) → epoch ms. */
function ny(time: string, day = '2026-03-10'): number {
  return Date.parse(`${day}T${time}:00-04:00`);
}

function ctx(overrides: Partial<QueryContext> = {}): QueryContext {
  return { now: NOW, windowMs: 15 * MIN, timeZone: TZ, location: 'lobby', ...overrides };
}

interface Expectation {
  metric: Metric;
  aggregate: Aggregate;
  from?: number;
  to?: number;
  subtype?: string;
  min_dwell_s?: number;
  location?: string;
}

const DEFAULT_WINDOW = { from: NOW - 15 * MIN, to: NOW };
const AT_NOW = { from: NOW, to: NOW };

const UNDERSTOOD: Array<[string, Expectation]> = [
  // people, now
  ['how many ppl r in the lobby rn', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['How many people are in the lobby right now?', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['how many folks r here atm', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['yo how many ppl in here rn lol', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['how many peple in the lobby', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ["what's the headcount", { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['number of people right now', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['ppl count?', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['people in lobby', { metric: 'people', aggregate: 'current', ...AT_NOW }],
  ['how many people were here at 9:30', { metric: 'people', aggregate: 'current', from: ny('09:30'), to: ny('09:30') }],
  ['how many people in the lobby 10 minutes ago', { metric: 'people', aggregate: 'current', from: NOW - 10 * MIN, to: NOW - 10 * MIN }],
  // people, peak
  ['busiest it got in the last hour?', { metric: 'people', aggregate: 'peak', from: NOW - 60 * MIN, to: NOW }],
  ['whats the max ppl today', { metric: 'people', aggregate: 'peak', from: ny('00:00'), to: NOW }],
  ['peak people in the last hour', { metric: 'people', aggregate: 'peak', from: NOW - 60 * MIN, to: NOW }],
  ['when was it busiest today', { metric: 'people', aggregate: 'peak', from: ny('00:00'), to: NOW }],
  ['most people at once since 9am?', { metric: 'people', aggregate: 'peak', from: ny('09:00'), to: NOW }],
  ['highest number of people this morning', { metric: 'people', aggregate: 'peak', from: ny('05:00'), to: NOW }],
  ['how many people at peak', { metric: 'people', aggregate: 'peak', ...DEFAULT_WINDOW }],
  // people, average
  ['what was the average number of people since 9am', { metric: 'people', aggregate: 'average', from: ny('09:00'), to: NOW }],
  ['avg ppl between 2 and 3pm', { metric: 'people', aggregate: 'average', from: ny('14:00', '2026-03-09'), to: ny('15:00', '2026-03-09') }],
  ['typical number of people in the last 2 hours', { metric: 'people', aggregate: 'average', from: NOW - 120 * MIN, to: NOW }],
  ['on average how many people were in the lobby between 9 and 10', { metric: 'people', aggregate: 'average', from: ny('09:00'), to: ny('10:00') }],
  // people, arrivals
  ['how many people came in this morning', { metric: 'people', aggregate: 'arrivals', from: ny('05:00'), to: NOW }],
  ['how many visitors today', { metric: 'people', aggregate: 'arrivals', from: ny('00:00'), to: NOW }],
  ['how many people have arrived in the past 10 minutes', { metric: 'people', aggregate: 'arrivals', from: NOW - 10 * MIN, to: NOW }],
  ['did anyone enter since 9?', { metric: 'people', aggregate: 'arrivals', from: ny('09:00'), to: NOW }],
  ['how many people walked in between 9 and 10', { metric: 'people', aggregate: 'arrivals', from: ny('09:00'), to: ny('10:00') }],
  ['total people since yesterday', { metric: 'people', aggregate: 'arrivals', from: ny('00:00', '2026-03-09'), to: NOW }],
  ['how many ppl showed up in the last 30 mins', { metric: 'people', aggregate: 'arrivals', from: NOW - 30 * MIN, to: NOW }],
  // people, presence
  ['is anyone in the lobby?', { metric: 'people', aggregate: 'presence', ...AT_NOW }],
  ['anyone here?', { metric: 'people', aggregate: 'presence', ...AT_NOW }],
  ['is the lobby empty', { metric: 'people', aggregate: 'presence', ...AT_NOW }],
  ['any1 in the lobby rn?', { metric: 'people', aggregate: 'presence', ...AT_NOW }],
  ['is there anybody in the lobby right now', { metric: 'people', aggregate: 'presence', ...AT_NOW }],
  ['was anybody here at 9', { metric: 'people', aggregate: 'presence', from: ny('09:00'), to: ny('09:00') }],
  ['has anyone been here since 9am', { metric: 'people', aggregate: 'presence', from: ny('09:00'), to: NOW }],
  ['were there people in the lobby between 9 and 10', { metric: 'people', aggregate: 'presence', from: ny('09:00'), to: ny('10:00') }],
  // crowd density
  ['how crowded is it', { metric: 'crowd_density', aggregate: 'current', ...AT_NOW }],
  ['lobby busy?', { metric: 'crowd_density', aggregate: 'current', ...AT_NOW }],
  ["what's the occupancy", { metric: 'crowd_density', aggregate: 'current', ...AT_NOW }],
  ['how full is it', { metric: 'crowd_density', aggregate: 'current', ...AT_NOW }],
  ['how packed was it this morning', { metric: 'crowd_density', aggregate: 'peak', from: ny('05:00'), to: NOW }],
  ['most crowded it got today', { metric: 'crowd_density', aggregate: 'peak', from: ny('00:00'), to: NOW }],
  // vehicles
  ['how many cars', { metric: 'vehicles', aggregate: 'current', ...AT_NOW }],
  ['any cars since 9?', { metric: 'vehicles', aggregate: 'presence', from: ny('09:00'), to: NOW }],
  ['how many cars today', { metric: 'vehicles', aggregate: 'arrivals', from: ny('00:00'), to: NOW }],
  ['did any cars show up since 9', { metric: 'vehicles', aggregate: 'arrivals', from: ny('09:00'), to: NOW }],
  ['traffic today?', { metric: 'vehicles', aggregate: 'arrivals', from: ny('00:00'), to: NOW }],
  ['max vehicles in the last hour', { metric: 'vehicles', aggregate: 'peak', from: NOW - 60 * MIN, to: NOW }],
  // anomalies
  ['anything unusual?', { metric: 'anomalies', aggregate: 'list', ...DEFAULT_WINDOW }],
  ['any unrecognized people?', { metric: 'anomalies', aggregate: 'list', subtype: 'unrecognized', ...DEFAULT_WINDOW }],
  ['has anyone been loitering?', { metric: 'anomalies', aggregate: 'list', min_dwell_s: 300, ...DEFAULT_WINDOW }],
  ['any strangers around?', { metric: 'anomalies', aggregate: 'list', subtype: 'unrecognized', ...DEFAULT_WINDOW }],
  ['anybody hanging around the lobby?', { metric: 'anomalies', aggregate: 'list', min_dwell_s: 300, ...DEFAULT_WINDOW }],
  ['anything weird since 8?', { metric: 'anomalies', aggregate: 'list', from: ny('08:00'), to: NOW }],
  ['anything out of the ordinary in the past 2 hours', { metric: 'anomalies', aggregate: 'list', from: NOW - 120 * MIN, to: NOW }],
  ['were there any unidentified persons since midnight', { metric: 'anomalies', aggregate: 'list', subtype: 'unrecognized', from: ny('00:00'), to: NOW }],
  ['any intruders last night', { metric: 'anomalies', aggregate: 'list', subtype: 'unrecognized', from: ny('18:00', '2026-03-09'), to: ny('06:00') }],
];

test(`understands ${UNDERSTOOD.length} casual phrasings`, () => {
  assert.ok(UNDERSTOOD.length >= 40);
  for (const [query, expected] of UNDERSTOOD) {
    const result = interpretQuery(query, ctx());
    assert.ok(result.ok, `${query}: refused (${result.ok ? '' : result.reason})`);
    const got = result.interpretation;
    assert.equal(got.metric, expected.metric, `${query}: metric`);
    assert.equal(got.aggregate, expected.aggregate, `${query}: aggregate`);
    if (expected.from !== undefined) assert.equal(got.from, expected.from, `${query}: from ${new Date(got.from).toISOString()}`);
    if (expected.to !== undefined) assert.equal(got.to, expected.to, `${query}: to ${new Date(got.to).toISOString()}`);
    assert.equal(got.subtype, expected.subtype, `${query}: subtype`);
    assert.equal(got.min_dwell_s, expected.min_dwell_s, `${query}: min_dwell_s`);
    assert.ok(got.summary.length > 0);
  }
});

test('a parking-lot scene answers to "lot", "parking lot" and "car park"', () => {
  const lot = ctx({ location: 'parking_lot' });
  const cases: Array<[string, Metric, Aggregate]> = [
    ['were any vehicles in the lot?', 'vehicles', 'presence'],
    ['any cars in the parking lot rn', 'vehicles', 'presence'],
    ['how many cars in the car park', 'vehicles', 'current'],
    ['how many cars came thru the lot today', 'vehicles', 'arrivals'],
  ];
  for (const [query, metric, aggregate] of cases) {
    const result = interpretQuery(query, lot);
    assert.ok(result.ok, `${query}: ${result.ok ? '' : result.reason}`);
    assert.equal(result.interpretation.metric, metric, query);
    assert.equal(result.interpretation.aggregate, aggregate, query);
  }
  // "were any vehicles in the lot?" has no time phrase and is past tense: the request window.
  const past = interpretQuery('were any vehicles in the lot?', lot);
  assert.ok(past.ok);
  assert.equal(past.interpretation.from, NOW - 15 * MIN);
  assert.equal(past.interpretation.to, NOW);
});

const REFUSED: string[] = [
  "what's the weather",
  'open the door',
  'can you lock the gate please',
  'call security',
  'asdf qwer zxcv',
  'how many people tomorrow',
  'how many people will be here at 5pm',
  'people in the next hour',
  'how busy will it be this afternoon',
  'how many people in the kitchen',
  'is anyone in the parking garage',
  'where is everyone',
  'how many people and cars',
  'peak and average people',
  'what time is it',
  'any unknown cars',
  'what color was the car',
  'peak people at 9:30',
  'how many people since 9 and since 10',
  '',
  '   ',
  '???',
  'tell me a joke',
];

test('refuses questions it cannot answer, with a reason and examples, never a guess', () => {
  for (const query of REFUSED) {
    const result = interpretQuery(query, ctx());
    assert.equal(result.ok, false, `${JSON.stringify(query)} was understood as ${result.ok ? result.interpretation.summary : ''}`);
    if (!result.ok) {
      assert.ok(result.reason.length > 10, `${query}: reason`);
      assert.ok(result.examples.length >= 5, `${query}: examples`);
      assert.ok(
        result.examples.some((e) => e.includes('lobby')),
        'examples name the scene location',
      );
    }
  }
});

test('refusals explain the specific problem', () => {
  const reason = (q: string) => {
    const r = interpretQuery(q, ctx());
    assert.equal(r.ok, false, q);
    return r.ok ? '' : r.reason;
  };
  assert.match(reason('how many people tomorrow'), /future/);
  assert.match(reason('open the door'), /instruction/);
  assert.match(reason('how many people in the kitchen'), /lobby.*kitchen/);
  assert.match(reason("what's the weather"), /weather/);
  assert.match(reason('how many people and cars'), /people and vehicles/);
});

test('the time phrase inside the question wins over the request window', () => {
  const result = interpretQuery('peak people in the last 10 minutes', ctx({ windowMs: 24 * 60 * MIN }));
  assert.ok(result.ok);
  assert.equal(result.interpretation.from, NOW - 10 * MIN);
  assert.equal(result.interpretation.time_phrase, 'in the last 10 minutes');
  const windowed = interpretQuery('peak people', ctx({ windowMs: 2 * 60 * MIN }));
  assert.ok(windowed.ok);
  assert.equal(windowed.interpretation.from, NOW - 120 * MIN);
  assert.equal(windowed.interpretation.time_phrase, undefined);
  assert.equal(windowed.interpretation.range_label, 'in the last 2 hours');
});

test('clock times are read in the scene time zone', () => {
  const london = interpretQuery('avg people since 9am', ctx({ timeZone: 'Europe/London' }));
  assert.ok(london.ok);
  assert.equal(london.interpretation.from, Date.parse('2026-03-10T09:00:00Z')); // London is on GMT in early March
  const tokyo = interpretQuery('avg people since 9am', ctx({ timeZone: 'Asia/Tokyo' }));
  assert.ok(tokyo.ok);
  // 10:14 in New York is 23:14 in Tokyo, so "since 9am" there is 09:00 JST the same day.
  assert.equal(tokyo.interpretation.from, Date.parse('2026-03-10T09:00:00+09:00'));
});

test('a bare or time-of-day phrase that has not happened yet today means the latest one', () => {
  // 10:14: "since 9" is 09:00 today; "since 11" has not happened today, so 23:00 yesterday.
  const since9 = interpretQuery('any cars since 9?', ctx());
  assert.ok(since9.ok);
  assert.equal(since9.interpretation.from, ny('09:00'));
  const since11 = interpretQuery('any cars since 11', ctx());
  assert.ok(since11.ok);
  assert.equal(since11.interpretation.from, ny('23:00', '2026-03-09'));
  const since9pm = interpretQuery('anything unusual since 9pm', ctx());
  assert.ok(since9pm.ok);
  assert.equal(since9pm.interpretation.from, ny('21:00', '2026-03-09'));
});

test('day boundaries follow DST: "yesterday" on the day after the change is 23 hours long', () => {
  // 9 March 2026 00:00 EDT ... but DST began 8 March 02:00, so query from the 9th about the 8th.
  const now = Date.parse('2026-03-09T08:00:00-04:00');
  const result = interpretQuery('peak people yesterday', ctx({ now }));
  assert.ok(result.ok);
  assert.equal(result.interpretation.from, Date.parse('2026-03-08T00:00:00-05:00'));
  assert.equal(result.interpretation.to, Date.parse('2026-03-09T00:00:00-04:00'));
  assert.equal(result.interpretation.to - result.interpretation.from, 23 * 60 * MIN);
});

test('the summary says what was understood, in local time', () => {
  const result = interpretQuery('busiest it got since 9am?', ctx());
  assert.ok(result.ok);
  assert.equal(result.interpretation.summary, 'peak people count in lobby from 09:00 to 10:14');
  assert.equal(result.interpretation.range_label, 'since 09:00');
  const now = interpretQuery('how many ppl r in the lobby rn', ctx());
  assert.ok(now.ok);
  assert.equal(now.interpretation.summary, 'people count in lobby at 10:14');
  assert.equal(now.interpretation.range_label, 'now (10:14)');
});

test('a broken context is the caller’s bug and throws, unlike a question it cannot answer', () => {
  assert.throws(() => interpretQuery('how many people', ctx({ timeZone: 'Mars/Olympus_Mons' })), RangeError);
  assert.throws(() => interpretQuery('how many people', ctx({ windowMs: 0 })), RangeError);
});

test('a bare weekday means the latest one; "this friday" on a Tuesday is the future', () => {
  const friday = interpretQuery('peak people on friday', ctx());
  assert.ok(friday.ok);
  assert.equal(friday.interpretation.from, Date.parse('2026-03-06T00:00:00-05:00')); // before the DST change
  assert.equal(friday.interpretation.to, Date.parse('2026-03-07T00:00:00-05:00'));
  const coming = interpretQuery('peak people this friday', ctx());
  assert.equal(coming.ok, false);
});
