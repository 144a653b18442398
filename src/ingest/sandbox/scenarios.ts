/**
 * Sandbox scenes: synthetic scene data usable without a physical camera (docs/design.md
 * "Sandbox"): deterministic, seeded detection generators. They hold no timers: the stream
 * runner asks for the detections of each elapsed interval on its own clock.
 */
import { LocalTime } from './local-time.ts';
import { SceneGenerator, type SceneSpec } from './scene-engine.ts';
import type { ScenarioGenerator, ScenarioName, ScenarioOptions } from './scenario-types.ts';
import { afterHoursIntrusionScene, crowdSurgeScene, lobbyScene, loiteringScene, parkingLotScene } from './organization-scenarios.ts';
import {
  homeBackDoorScene,
  homeBackyardScene,
  homeDrivewayScene,
  homeFrontPorchScene,
  homeGarageMotionScene,
  homeLivingRoomScene,
  homeNurseryScene,
} from './household-scenarios.ts';

export { SCENARIO_NAMES, isScenarioName } from './scenario-types.ts';
export type { ScenarioGenerator, ScenarioName, ScenarioOptions } from './scenario-types.ts';
export { HOME_SENSORS, type HomeSensor } from './household-scenarios.ts';
export { parseSandboxUrl, type SandboxUrlParse } from './sandbox-url.ts';

const SCENES: Record<ScenarioName, SceneSpec> = {
  lobby: lobbyScene,
  parking_lot: parkingLotScene,
  after_hours_intrusion: afterHoursIntrusionScene,
  loitering: loiteringScene,
  crowd_surge: crowdSurgeScene,
  home_front_porch: homeFrontPorchScene,
  home_driveway: homeDrivewayScene,
  home_back_door: homeBackDoorScene,
  home_garage_motion: homeGarageMotionScene,
  home_backyard: homeBackyardScene,
  home_living_room: homeLivingRoomScene,
  home_nursery: homeNurseryScene,
};

/** Throws RangeError for an unknown scenario, a non-integer seed or an unknown time zone. */
export function createScenario(name: ScenarioName, opts: ScenarioOptions): ScenarioGenerator {
  if (!Object.hasOwn(SCENES, name)) throw new RangeError(`unknown sandbox scenario "${String(name)}"`);
  if (!Number.isSafeInteger(opts.seed)) throw new RangeError(`sandbox seed must be an integer (got ${opts.seed})`);
  const timeZone = opts.timeZone ?? 'UTC';
  let time: LocalTime;
  try {
    time = new LocalTime(timeZone);
  } catch {
    throw new RangeError(`unknown time zone "${timeZone}" (expected an IANA name such as Europe/Paris)`);
  }
  return new SceneGenerator(name, SCENES[name], opts.seed, time);
}
