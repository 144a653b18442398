import type { DetectionInput } from '../../platform/kinds/index.ts';

/** Every sandbox scenario a `sandbox://` stream can name (organization scenes, then the simulated home). */
export const SCENARIO_NAMES = [
  'lobby',
  'parking_lot',
  'after_hours_intrusion',
  'loitering',
  'crowd_surge',
  'home_front_porch',
  'home_driveway',
  'home_back_door',
  'home_garage_motion',
  'home_backyard',
  'home_living_room',
  'home_nursery',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export function isScenarioName(value: string): value is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(value);
}

export interface ScenarioOptions {
  seed: number;
  /** IANA time zone whose local day the activity follows; default 'UTC'. */
  timeZone?: string;
}

export interface ScenarioGenerator {
  readonly name: ScenarioName;
  /**
   * Every detection with `at` in (fromMs, toMs], ascending by `at`. Independent of how an interval
   * is split: detectionsBetween(a,b) ++ detectionsBetween(b,c) deep-equals detectionsBetween(a,c).
   */
  detectionsBetween(fromMs: number, toMs: number): DetectionInput[];
}
