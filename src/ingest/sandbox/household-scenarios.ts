/**
 * The simulated home (Surface A sandbox): one family's day as seen by seven sensors. Each sensor
 * is its own stream and scenario. Residents and deliveries are ordinary (subtype null); strangers
 * (`unrecognized`) are rare and likelier at night on the porch, driveway and in the backyard.
 * Rates are arrivals per hour at each local hour, index 0 = 00:00–01:00.
 */
import { addDays, isWeekend, type LocalDate } from '../../platform/time/index.ts';
import {
  collectDailyVisits,
  createDoorOpenDetection,
  createMotionDetection,
  createVisit,
  drawVisitors,
  everyDay,
  sampleArrivals,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  type BucketContext,
  type DayContext,
  type RateCurve,
  type SceneSpec,
  type Visit,
} from './scene-engine.ts';
import type { ScenarioName } from './scenario-types.ts';
import type { Rng } from './seeded-random.ts';
import type { DetectionInput } from '../../platform/kinds/index.ts';

export interface HomeSensor {
  name: string;
  room: string;
  kind: 'camera' | 'contact' | 'motion';
  scenario: ScenarioName;
}

/** The household template: which sensor streams a simulated home is made of. */
export const HOME_SENSORS: HomeSensor[] = [
  { name: 'Front porch camera', room: 'front porch', kind: 'camera', scenario: 'home_front_porch' },
  { name: 'Driveway camera', room: 'driveway', kind: 'camera', scenario: 'home_driveway' },
  { name: 'Back door contact', room: 'back door', kind: 'contact', scenario: 'home_back_door' },
  { name: 'Garage motion sensor', room: 'garage', kind: 'motion', scenario: 'home_garage_motion' },
  { name: 'Backyard camera', room: 'backyard', kind: 'camera', scenario: 'home_backyard' },
  { name: 'Living room camera', room: 'living room', kind: 'camera', scenario: 'home_living_room' },
  { name: 'Nursery camera', room: 'nursery', kind: 'camera', scenario: 'home_nursery' },
];

const TRACKED_EVERY_MS = 10 * SECOND_MS;

// prettier-ignore
const STRANGERS_OUTSIDE = everyDay([0.2, 0.18, 0.15, 0.12, 0.1, 0.08, 0.05, 0.05, 0.06, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.1, 0.15, 0.2, 0.22, 0.22, 0.22]);

/** A stranger lingering outside: tracked while in view, so dwell can be watched. */
function drawStrangers(ctx: BucketContext, curve: RateCurve): Visit[] {
  return drawVisitors(ctx, 'unk', {
    curve,
    stayMs: [30 * SECOND_MS, 5 * MINUTE_MS],
    sightEveryMs: TRACKED_EVERY_MS,
    subtype: 'unrecognized',
    confidence: [0.6, 0.9],
  });
}

// prettier-ignore
const SIDEWALK_WALKERS = everyDay([0.05, 0.02, 0.02, 0.02, 0.05, 0.2, 0.8, 1.5, 2, 2, 1.5, 1.5, 2, 1.5, 1.5, 1.5, 2, 2.5, 2.5, 2, 1.5, 0.8, 0.3, 0.1]);

/** Neighbours and dog walkers crossing the edge of a street-facing camera's view. */
function drawSidewalkWalkers(ctx: BucketContext): Visit[] {
  return drawVisitors(ctx, 'walk', {
    curve: SIDEWALK_WALKERS,
    stayMs: [8 * SECOND_MS, 30 * SECOND_MS],
    sightEveryMs: TRACKED_EVERY_MS,
    confidence: [0.65, 0.92],
  });
}

// prettier-ignore
const RESIDENTS_AT_DOOR: RateCurve = {
  // leaving for work/school 7–9, coming home 15–19
  weekday: [0.05, 0.02, 0.02, 0.02, 0.05, 0.2, 0.8, 2.5, 2, 0.8, 0.5, 0.5, 0.6, 0.5, 0.6, 1, 1.5, 2, 1.5, 0.8, 0.4, 0.2, 0.1, 0.05],
  weekend: [0.05, 0.02, 0.02, 0.02, 0.02, 0.05, 0.2, 0.5, 0.8, 1, 1.2, 1.2, 1, 1, 1.2, 1.2, 1, 1, 0.8, 0.6, 0.4, 0.2, 0.1, 0.05],
};
// prettier-ignore
const DELIVERIES: RateCurve = {
  weekday: [0, 0, 0, 0, 0, 0, 0, 0, 0.3, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.5, 0.2, 0.05, 0, 0, 0],
  weekend: [0, 0, 0, 0, 0, 0, 0, 0, 0.2, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.5, 0.5, 0.4, 0.3, 0.1, 0, 0, 0, 0],
};

export const homeFrontPorchScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => ({
    visits: [
      ...drawVisitors(ctx, 'res', {
        curve: RESIDENTS_AT_DOOR,
        stayMs: [15 * SECOND_MS, 90 * SECOND_MS],
        sightEveryMs: TRACKED_EVERY_MS,
        confidence: [0.8, 0.98],
      }),
      ...drawVisitors(ctx, 'dlv', {
        curve: DELIVERIES,
        stayMs: [30 * SECOND_MS, 150 * SECOND_MS],
        sightEveryMs: TRACKED_EVERY_MS,
        confidence: [0.78, 0.97],
      }),
      ...drawSidewalkWalkers(ctx),
      ...drawStrangers(ctx, STRANGERS_OUTSIDE),
    ],
    points: [],
  }),
};

interface Outing {
  departAt: number;
  returnAt: number;
}

/**
 * When family car `car` is away on `date`: weekday commutes (car 0 the longer one), a weekend
 * errand. Every day has one outing, which bounds how long a car sits in the driveway (< 20 h).
 */
function planOuting(car: number, date: LocalDate, day: DayContext): Outing {
  const rng = day.rng(`car${car}`, date);
  let depart: number;
  let back: number;
  if (isWeekend(date)) {
    depart = rng.uniform(9.5, 11.5);
    back = depart + rng.uniform(1, 3.5);
  } else if (car === 0) {
    depart = rng.uniform(7.25, 8);
    back = rng.uniform(17, 18.75);
  } else {
    depart = rng.uniform(8.25, 9);
    back = rng.uniform(15.5, 17);
  }
  return { departAt: day.time.instantOf(date, depart), returnAt: day.time.instantOf(date, back) };
}

/**
 * The family cars parked from their return on `date` until they leave the next day, and the
 * driver walking between car and house at both ends.
 */
function planFamilyCars(date: LocalDate, day: DayContext): Visit[] {
  const visits: Visit[] = [];
  for (const car of [0, 1]) {
    const rng = day.rng(`car${car}-walk`, date);
    const add = (kind: Visit['kind'], arriveAt: number, leaveAt: number, sightEveryMs: number) =>
      visits.push(
        createVisit({
          trackId: day.trackId(visits.length),
          kind,
          arriveAt,
          leaveAt,
          subtype: null,
          confidence: rng.uniform(0.8, 0.98),
          counted: true,
          sightEveryMs,
        }),
      );
    const returnAt = planOuting(car, date, day).returnAt;
    const nextDepartAt = planOuting(car, addDays(date, 1), day).departAt;
    add('vehicle', returnAt, nextDepartAt, 0);
    const getsOut = returnAt + Math.round(rng.uniform(5, 20) * SECOND_MS);
    add('person', getsOut, getsOut + Math.round(rng.uniform(15, 45) * SECOND_MS), TRACKED_EVERY_MS);
    add('person', nextDepartAt - Math.round(rng.uniform(40, 90) * SECOND_MS), nextDepartAt - 5 * SECOND_MS, TRACKED_EVERY_MS);
  }
  return visits;
}

// prettier-ignore
const DELIVERY_VANS: RateCurve = {
  weekday: [0, 0, 0, 0, 0, 0, 0, 0, 0.2, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.3, 0.1, 0, 0, 0, 0],
  weekend: [0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.3, 0.4, 0.4, 0.4, 0.4, 0.4, 0.3, 0.3, 0.3, 0.2, 0.1, 0, 0, 0, 0],
};
// prettier-ignore
const VISITING_CARS: RateCurve = {
  weekday: [0, 0, 0, 0, 0, 0, 0, 0, 0.05, 0.1, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.3, 0.4, 0.5, 0.5, 0.3, 0.1, 0, 0],
  weekend: [0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.3, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.5, 0.4, 0.3, 0.1, 0, 0],
};
// prettier-ignore
const STRANGERS_ON_DRIVEWAY = everyDay([0.15, 0.15, 0.12, 0.1, 0.1, 0.05, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.05, 0.08, 0.1, 0.12, 0.15, 0.15]);

/** A driver who gets out a little after a vehicle stops and is back in before it leaves. */
function drawDriver(vehicle: Visit, trackId: string, rng: Rng): Visit {
  const arriveAt = vehicle.arriveAt + Math.round(rng.uniform(10, 30) * SECOND_MS);
  const latest = vehicle.leaveAt - 10 * SECOND_MS;
  return createVisit({
    trackId,
    kind: 'person',
    arriveAt,
    leaveAt: Math.max(arriveAt + 20 * SECOND_MS, Math.min(latest, arriveAt + Math.round(rng.uniform(20, 90) * SECOND_MS))),
    subtype: null,
    confidence: rng.uniform(0.78, 0.97),
    counted: true,
    sightEveryMs: TRACKED_EVERY_MS,
  });
}

export const homeDrivewayScene: SceneSpec = {
  // a family car can stand from a weekend lunchtime to the next morning (~21 h, 22 h across DST)
  lookbackMs: 26 * HOUR_MS,
  countsPersons: true,
  countsVehicles: true,
  generateBucket: (ctx) => {
    const car = { kind: 'vehicle', confidence: [0.8, 0.97] } as const;
    const vans = drawVisitors(ctx, 'van', { ...car, curve: DELIVERY_VANS, stayMs: [2 * MINUTE_MS, 6 * MINUTE_MS] });
    const guests = drawVisitors(ctx, 'guest', { ...car, curve: VISITING_CARS, stayMs: [20 * MINUTE_MS, 3 * HOUR_MS] });
    const rng = ctx.rng('drivers');
    const drivers = [...vans, ...guests].map((v, n) => drawDriver(v, ctx.trackId('drv', n), rng));
    const visits = [...collectDailyVisits(ctx, 'fam', planFamilyCars), ...vans, ...guests, ...drivers];
    return { visits: [...visits, ...drawSidewalkWalkers(ctx), ...drawStrangers(ctx, STRANGERS_ON_DRIVEWAY)], points: [] };
  },
};

// prettier-ignore
const BACK_DOOR_OPENINGS: RateCurve = {
  // kids and the dog in and out; evenings busiest
  weekday: [0.1, 0.05, 0.05, 0.05, 0.05, 0.1, 0.8, 2, 1.5, 1.3, 1.3, 1.4, 1.5, 1.4, 1.3, 1.5, 2.5, 3, 3, 2.5, 2, 1, 0.4, 0.2],
  weekend: [0.1, 0.05, 0.05, 0.05, 0.05, 0.1, 0.3, 1, 2, 3, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3, 3, 2.5, 2, 1, 0.4, 0.2],
};

/** The back-door contact: an opening, and usually another when whoever went out comes back in. */
export const homeBackDoorScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: false,
  countsVehicles: false,
  generateBucket: (ctx) => {
    const rng = ctx.rng('door');
    const points: DetectionInput[] = [];
    for (const at of sampleArrivals(ctx, rng, BACK_DOOR_OPENINGS)) {
      points.push(createDoorOpenDetection(at));
      if (rng.chance(0.6)) points.push(createDoorOpenDetection(at + Math.round(rng.uniform(1, 20) * MINUTE_MS)));
    }
    return { visits: [], points };
  },
};

// prettier-ignore
const GARAGE_ACTIVITY: RateCurve = {
  // people fetching things, cars in and out; the odd cat at night
  weekday: [0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 1, 2.5, 2, 1.3, 1.2, 1.2, 1.3, 1.2, 1.2, 1.3, 1.5, 2.5, 2, 1.5, 1, 0.6, 0.4, 0.3],
  weekend: [0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 0.5, 1, 2, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2, 2, 1.5, 1.2, 1, 0.6, 0.4, 0.3],
};

/** The garage PIR sensor reports motion every 10–20 s while something moves, for 20 s to 3 min. */
export const homeGarageMotionScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: false,
  countsVehicles: false,
  generateBucket: (ctx) => {
    const rng = ctx.rng('motion');
    const points: DetectionInput[] = [];
    for (const start of sampleArrivals(ctx, rng, GARAGE_ACTIVITY)) {
      const end = start + rng.logUniform(20 * SECOND_MS, 3 * MINUTE_MS);
      const every = rng.uniform(10 * SECOND_MS, 20 * SECOND_MS);
      for (let at = start; at < end; at += every) points.push(createMotionDetection(Math.round(at), rng.uniform(0.6, 0.95)));
    }
    return { visits: [], points };
  },
};

// prettier-ignore
const BACKYARD_PLAY: RateCurve = {
  // someone out with the dog or at the washing line during the day, the kids after school
  weekday: [0, 0, 0, 0, 0, 0, 0.05, 0.3, 0.8, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.4, 1.4, 1.2, 1, 0.5, 0.2, 0.05, 0],
  weekend: [0, 0, 0, 0, 0, 0, 0.05, 0.3, 0.8, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.2, 1, 0.5, 0.2, 0.05, 0],
};
// prettier-ignore
const STRANGERS_IN_BACKYARD = everyDay([0.12, 0.12, 0.1, 0.1, 0.08, 0.05, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.03, 0.05, 0.08, 0.1, 0.12, 0.12]);

// prettier-ignore
const DOG_IN_BACKYARD: RateCurve = {
  // the family dog (the household's pet): let out first thing, at lunch and in the evening
  weekday: [0, 0, 0, 0, 0, 0, 0.3, 1, 0.4, 0.2, 0.2, 0.2, 0.6, 0.4, 0.2, 0.2, 0.4, 0.8, 1, 0.8, 0.5, 0.6, 0.3, 0],
  weekend: [0, 0, 0, 0, 0, 0, 0.1, 0.5, 1, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 1, 0.8, 0.5, 0.6, 0.3, 0],
};
// prettier-ignore
const DOG_IN_LIVING_ROOM = everyDay([0.1, 0.05, 0.05, 0.05, 0.05, 0.1, 0.4, 0.6, 0.4, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.4, 0.6, 0.8, 0.8, 0.8, 0.6, 0.3, 0.2]);

/** The family dog: an `animal` (subtype dog), tracked like a person but never in the person count. */
function drawDog(ctx: BucketContext, curve: RateCurve, stayMs: readonly [number, number]): Visit[] {
  return drawVisitors(ctx, 'dog', { kind: 'animal', subtype: 'dog', curve, stayMs, sightEveryMs: 30 * SECOND_MS, confidence: [0.7, 0.95], counted: false });
}

export const homeBackyardScene: SceneSpec = {
  lookbackMs: 2 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => ({
    visits: [
      ...drawVisitors(ctx, 'res', {
        curve: BACKYARD_PLAY,
        stayMs: [3 * MINUTE_MS, 40 * MINUTE_MS],
        sightEveryMs: 30 * SECOND_MS,
        confidence: [0.8, 0.98],
      }),
      ...drawStrangers(ctx, STRANGERS_IN_BACKYARD),
      ...drawDog(ctx, DOG_IN_BACKYARD, [2 * MINUTE_MS, 30 * MINUTE_MS]),
    ],
    points: [],
  }),
};

// prettier-ignore
const LIVING_ROOM_ENTRIES: RateCurve = {
  // breakfast before work/school, a parent at home with the baby by day, family evening;
  // whole weekend days at home
  weekday: [0.05, 0.02, 0.02, 0.02, 0.02, 0.1, 1.2, 2, 1.3, 1.3, 1.3, 1.3, 1.4, 1.3, 1.3, 1.3, 1.5, 2.5, 3, 3, 2.5, 1.5, 0.6, 0.2],
  weekend: [0.1, 0.05, 0.02, 0.02, 0.02, 0.05, 0.2, 0.8, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 2.5, 2.5, 2.5, 2.5, 2.5, 1, 0.3],
};

/** Residents settle in for minutes to over an hour; the camera re-reports them every minute. */
export const homeLivingRoomScene: SceneSpec = {
  lookbackMs: 3 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => ({
    visits: [
      ...drawVisitors(ctx, 'res', {
        curve: LIVING_ROOM_ENTRIES,
        stayMs: [5 * MINUTE_MS, 100 * MINUTE_MS],
        sightEveryMs: MINUTE_MS,
        confidence: [0.8, 0.98],
      }),
      ...drawDog(ctx, DOG_IN_LIVING_ROOM, [MINUTE_MS, 60 * MINUTE_MS]),
    ],
    points: [],
  }),
};

/**
 * The baby's day: in the crib from about 19:30 to 07:00 and for a morning and an afternoon nap,
 * with a parent settling them, one to three night feeds and the pick-ups.
 */
function planNursery(date: LocalDate, day: DayContext): Visit[] {
  const rng = day.rng('nursery', date);
  const t = (hour: number) => day.time.instantOf(date, hour);
  const visits: Visit[] = [];
  const add = (arriveAt: number, leaveAt: number, sightEveryMs: number, confidence: number) =>
    visits.push(
      createVisit({
        trackId: day.trackId(visits.length),
        kind: 'person',
        arriveAt,
        leaveAt,
        subtype: null,
        confidence,
        counted: true,
        sightEveryMs,
      }),
    );
  const parent = (arriveAt: number, leaveAt: number) => add(arriveAt, leaveAt, 30 * SECOND_MS, rng.uniform(0.78, 0.96));
  // a sleeping baby barely moves; the camera re-reports it every 5 minutes, in dim light
  const baby = (arriveAt: number, leaveAt: number) => add(arriveAt, leaveAt, 5 * MINUTE_MS, rng.uniform(0.7, 0.92));

  const nap = (start: number, hours: readonly [number, number]) => {
    const end = start + Math.round(rng.uniform(hours[0], hours[1]) * HOUR_MS);
    baby(start, end);
    parent(start - 2 * MINUTE_MS, start + Math.round(rng.uniform(5, 10) * MINUTE_MS));
    parent(end - 2 * MINUTE_MS, end + 5 * SECOND_MS);
  };
  nap(t(rng.uniform(9.25, 9.75)), [0.75, 1.25]);
  nap(t(rng.uniform(12.75, 13.25)), [1.25, 2]);

  const bedtime = t(rng.uniform(19.25, 19.75));
  const wake = t(24 + rng.uniform(6.5, 7.25));
  baby(bedtime, wake);
  parent(bedtime - 2 * MINUTE_MS, bedtime + Math.round(rng.uniform(15, 25) * MINUTE_MS));
  const feeds = rng.int(1, 3);
  for (let i = 0; i < feeds; i++) {
    const feed = t(23 + rng.uniform(0, 5.5));
    parent(feed, feed + Math.round(rng.uniform(10, 25) * MINUTE_MS));
  }
  parent(wake - Math.round(rng.uniform(2, 5) * MINUTE_MS), wake + 5 * SECOND_MS);
  return visits;
}

// prettier-ignore
const NURSERY_PLAY = everyDay([0, 0, 0, 0, 0, 0, 0, 0.3, 0.6, 0.6, 0.6, 0.6, 0.4, 0.3, 0.6, 1.2, 1.2, 1.2, 0.6, 0.1, 0, 0, 0, 0]);

export const homeNurseryScene: SceneSpec = {
  lookbackMs: 14 * HOUR_MS,
  countsPersons: true,
  countsVehicles: false,
  generateBucket: (ctx) => ({
    visits: [
      ...collectDailyVisits(ctx, 'baby', planNursery),
      // changing and playing during the day
      ...drawVisitors(ctx, 'play', {
        curve: NURSERY_PLAY,
        stayMs: [3 * MINUTE_MS, 15 * MINUTE_MS],
        sightEveryMs: 30 * SECOND_MS,
        confidence: [0.8, 0.97],
      }),
    ],
    points: [],
  }),
};
