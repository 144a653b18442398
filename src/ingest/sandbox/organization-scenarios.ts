/**
 * Organization scenes (Surface B sandbox): what a lobby, a parking lot or a plaza camera would
 * report. Rates are arrivals per hour at each local hour, index 0 = 00:00–01:00.
 */
import {
  createPersonDetection,
  createVisit,
  collectDailyVisits,
  drawVisitors,
  everyDay,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  type BucketContext,
  type DayContext,
  type RateCurve,
  type SceneSpec,
  type Visit,
} from './scene-engine.ts';
import { hashKey, type Rng } from './seeded-random.ts';
import type { LocalDate } from '../../platform/time/index.ts';
import type { DetectionInput } from '../../platform/kinds/index.ts';

// prettier-ignore
const LOBBY_ARRIVALS: RateCurve = {
  // busy 8–10, 12–14 and 17–18 on weekdays, near empty at night
  weekday: [2, 1, 1, 1, 1, 3, 15, 60, 260, 250, 110, 120, 210, 200, 100, 90, 110, 230, 120, 45, 20, 10, 5, 3],
  weekend: [2, 1, 1, 1, 1, 2, 3, 8, 20, 30, 40, 45, 50, 45, 40, 35, 30, 25, 20, 12, 8, 5, 3, 2],
};

/** People cross the lobby: each is sighted once on entering and counted while there. */
export const lobbyScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => ({
    visits: drawVisitors(ctx, 'p', {
      curve: LOBBY_ARRIVALS,
      stayMs: [20 * SECOND_MS, 10 * MINUTE_MS],
      confidence: [0.72, 0.98],
    }),
    points: [],
  }),
};

// prettier-ignore
const COMMUTER_CARS: RateCurve = {
  weekday: [0, 0, 0, 0, 0, 2, 10, 30, 35, 15, 4, 2, 2, 2, 2, 1, 1, 1, 0.5, 0.3, 0.2, 0.1, 0, 0],
  weekend: [0, 0, 0, 0, 0, 0.5, 1, 2, 2, 1, 0.5, 0.5, 0.5, 0.5, 0.3, 0.3, 0.2, 0.2, 0.1, 0, 0, 0, 0, 0],
};
// prettier-ignore
const VISITOR_CARS: RateCurve = {
  weekday: [0.3, 0.2, 0.2, 0.2, 0.3, 0.5, 2, 6, 10, 14, 16, 18, 20, 18, 16, 14, 12, 10, 8, 5, 3, 2, 1, 0.5],
  weekend: [0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 1, 3, 6, 9, 11, 12, 12, 12, 11, 10, 8, 6, 5, 3, 2, 1, 0.6, 0.4],
};

/**
 * Drivers walking from and to their cars: a person a little after a car parks and a little
 * before it leaves (not every time; some walk out of view).
 */
function drawDriversWalking(cars: Visit[], rng: Rng, trackId: (n: number) => string): DetectionInput[] {
  const walkers: DetectionInput[] = [];
  for (const car of cars) {
    if (rng.chance(0.75)) {
      const at = car.arriveAt + Math.round(rng.uniform(15, 90) * SECOND_MS);
      walkers.push(createPersonDetection(at, trackId(walkers.length), rng.uniform(0.7, 0.95)));
    }
    if (rng.chance(0.75)) {
      const at = car.leaveAt - Math.round(rng.uniform(30, 150) * SECOND_MS);
      walkers.push(createPersonDetection(at, trackId(walkers.length), rng.uniform(0.7, 0.95)));
    }
  }
  return walkers;
}

/** Commuters park for the working day, visitors for minutes to hours; `vehicle` carries the count. */
export const parkingLotScene: SceneSpec = {
  lookbackMs: 11 * HOUR_MS,
  countsPersons: false,
  countsVehicles: true,
  generateBucket: (ctx) => {
    const commuters = drawVisitors(ctx, 'vc', {
      kind: 'vehicle',
      curve: COMMUTER_CARS,
      stayMs: [7.5 * HOUR_MS, 9.5 * HOUR_MS],
      confidence: [0.8, 0.98],
    });
    const visitors = drawVisitors(ctx, 'vv', {
      kind: 'vehicle',
      curve: VISITOR_CARS,
      stayMs: [8 * MINUTE_MS, 3 * HOUR_MS],
      confidence: [0.8, 0.98],
    });
    const cars = [...commuters, ...visitors];
    return { visits: cars, points: drawDriversWalking(cars, ctx.rng('walk'), (n) => ctx.trackId('pw', n)) };
  },
};

// prettier-ignore
const STAFF_ARRIVALS: RateCurve = {
  weekday: [0, 0, 0, 0, 0, 0.5, 2, 10, 25, 20, 15, 15, 20, 15, 15, 15, 15, 18, 8, 3, 1, 0.5, 0, 0],
  weekend: [0, 0, 0, 0, 0, 0, 0.5, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0.5, 0.2, 0, 0, 0, 0],
};

/** Local 22:00 to 05:00 next day: the after-hours window intruders are drawn in. */
const NIGHT_START_HOUR = 22;
const NIGHT_END_HOUR = 24 + 5;

/** One or two strangers every night, at a time that depends only on the seed and the date. */
function planIntruders(date: LocalDate, day: DayContext): Visit[] {
  const rng = day.rng('intruder', date);
  const nightStart = day.time.instantOf(date, NIGHT_START_HOUR);
  const nightEnd = day.time.instantOf(date, NIGHT_END_HOUR);
  const count = rng.chance(0.35) ? 2 : 1;
  const intruders: Visit[] = [];
  for (let n = 0; n < count; n++) {
    const stay = Math.round(rng.uniform(90 * SECOND_MS, 12 * MINUTE_MS));
    const arriveAt = nightStart + Math.floor(rng.next() * (nightEnd - nightStart - stay));
    intruders.push(
      createVisit({
        trackId: day.trackId(n),
        kind: 'person',
        arriveAt,
        leaveAt: arriveAt + stay,
        subtype: 'unrecognized',
        confidence: rng.uniform(0.62, 0.9),
        counted: true,
        // tracked while in view, so dwell can be watched
        sightEveryMs: 10 * SECOND_MS,
      }),
    );
  }
  return intruders;
}

/** A closed office: recognized staff by day, empty at night except an unrecognized person every night. */
export const afterHoursIntrusionScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => ({
    visits: [
      ...drawVisitors(ctx, 'staff', {
        curve: STAFF_ARRIVALS,
        stayMs: [30 * SECOND_MS, 6 * MINUTE_MS],
        confidence: [0.75, 0.98],
        // staff faces are known: the stream names them as the tenant's enrolled people,
        // or says nothing when it has none (SourceManager, resolveSandboxPeople)
        subtype: 'recognized',
      }),
      ...collectDailyVisits(ctx, 'intr', planIntruders),
    ],
    points: [],
  }),
};

// prettier-ignore
const PASSERS_BY: RateCurve = {
  weekday: [3, 2, 2, 2, 2, 4, 15, 40, 70, 60, 50, 50, 65, 60, 50, 50, 55, 65, 45, 30, 20, 12, 8, 5],
  weekend: [3, 2, 2, 2, 2, 2, 6, 15, 30, 35, 35, 35, 40, 35, 35, 30, 30, 30, 25, 18, 12, 8, 5, 4],
};
const LOITERER_CHANCE_PER_HOUR = 0.55;
const SIGHTING_EVERY_MS = 10 * SECOND_MS;

/** Passers-by cross in under a minute; about every other hour someone stays 4–15 minutes. */
export const loiteringScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => {
    const visits = drawVisitors(ctx, 'pass', {
      curve: PASSERS_BY,
      stayMs: [5 * SECOND_MS, 45 * SECOND_MS],
      sightEveryMs: SIGHTING_EVERY_MS,
      confidence: [0.7, 0.97],
    });
    const rng = ctx.rng('loiter');
    if (rng.chance(LOITERER_CHANCE_PER_HOUR)) {
      const arriveAt = ctx.startMs + Math.floor(rng.next() * HOUR_MS);
      visits.push(
        createVisit({
          trackId: ctx.trackId('loit', 0),
          kind: 'person',
          arriveAt,
          leaveAt: arriveAt + Math.round(rng.uniform(4 * MINUTE_MS, 15 * MINUTE_MS)),
          subtype: null,
          confidence: rng.uniform(0.75, 0.97),
          counted: true,
          sightEveryMs: SIGHTING_EVERY_MS,
        }),
      );
    }
    return { visits, points: [] };
  },
};

// prettier-ignore
const PLAZA_ARRIVALS = everyDay([8, 5, 4, 4, 4, 8, 30, 80, 120, 120, 110, 110, 130, 130, 120, 120, 130, 140, 120, 90, 60, 40, 25, 15]);
const SURGE_CHANCE_PER_HOUR = 0.3;
/** Every sixth hour surges regardless, so a surge is never more than ~6 h away. */
const GUARANTEED_SURGE_EVERY_HOURS = 6;

/**
 * A crowd that pours in within 3–6 minutes (80–150 people, all present together when the ramp
 * ends) and drains over the next 4–12 minutes.
 */
function drawSurge(ctx: BucketContext): Visit[] {
  const rng = ctx.rng('surge');
  const phase = hashKey(ctx.seedKey, 'surge-phase') % GUARANTEED_SURGE_EVERY_HOURS;
  const every = GUARANTEED_SURGE_EVERY_HOURS;
  const guaranteed = (((ctx.index - phase) % every) + every) % every === 0;
  if (!rng.chance(SURGE_CHANCE_PER_HOUR) && !guaranteed) return [];
  const start = ctx.startMs + Math.floor(rng.next() * HOUR_MS);
  const rampEnd = start + Math.round(rng.uniform(3 * MINUTE_MS, 6 * MINUTE_MS));
  const size = rng.int(80, 150);
  const crowd: Visit[] = [];
  for (let n = 0; n < size; n++) {
    const arriveAt = start + Math.floor(rng.next() * (rampEnd - start));
    crowd.push(
      createVisit({
        trackId: ctx.trackId('crowd', n),
        kind: 'person',
        arriveAt,
        leaveAt: rampEnd + Math.round(rng.uniform(4 * MINUTE_MS, 12 * MINUTE_MS)),
        subtype: null,
        // dense crowds occlude each other, so the detector is less sure
        confidence: rng.uniform(0.6, 0.9),
        counted: true,
        sightEveryMs: 0,
      }),
    );
  }
  return crowd;
}

/** A plaza with modest foot traffic and periodic surges. */
export const crowdSurgeScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => ({
    visits: [...drawVisitors(ctx, 'p', { curve: PLAZA_ARRIVALS, stayMs: [1 * MINUTE_MS, 10 * MINUTE_MS], confidence: [0.72, 0.97] }), ...drawSurge(ctx)],
    points: [],
  }),
};
