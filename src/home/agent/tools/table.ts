/**
 * The table of the household agent's tools (docs/decisions.md, "One table of agent tools"): one
 * file per tool, listed here once. Planners, the plan executor, the LLM endpoint and the
 * conversation's tool runner all read this table; adding a tool is a file and a line here.
 * The order is the order the tools are offered to a model and their readers are asked.
 */
import { createWatch } from './create-watch.ts';
import { updateWatch } from './update-watch.ts';
import { standDownWatch } from './stand-down-watch.ts';
import { listWatches } from './list-watches.ts';
import { muteSensor } from './mute-sensor.ts';
import { unmuteSensor } from './unmute-sensor.ts';
import { setBoundary } from './set-boundary.ts';
import { clearBoundary } from './clear-boundary.ts';
import { describeScene } from './describe-scene.ts';
import { listEvents } from './list-events.ts';
import { addSensor } from './add-sensor.ts';
import { addSensorByTopic } from './add-sensor-by-topic.ts';
import { setNotificationRouting } from './set-notification-routing.ts';
import { setHousehold } from './set-household.ts';
import { armHouse } from './arm-house.ts';

export const TOOL_TABLE = [
  createWatch,
  updateWatch,
  standDownWatch,
  listWatches,
  muteSensor,
  unmuteSensor,
  setBoundary,
  clearBoundary,
  describeScene,
  listEvents,
  addSensor,
  addSensorByTopic,
  setNotificationRouting,
  setHousehold,
  armHouse,
] as const;

export { RECURRENCES, SENSOR_KINDS, WATCH_CONDITIONS } from './fields.ts';
