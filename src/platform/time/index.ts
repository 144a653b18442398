// The module's public face: what other modules may import (docs/architecture.md).

import { token } from '../lib/index.ts';
import type { Clock } from './clock.ts';
export { systemClock, type Clock } from './clock.ts';
export { toIso } from './time.ts';
export { sayAgo } from './ago.ts';
export {
  addDays,
  addZonedDays,
  atZonedTime,
  countDaysBetween,
  formatClock,
  formatDateKey,
  formatLocal,
  formatMoment,
  fromWallClock,
  fromWallMs,
  getDateOfWallMs,
  getOffsetMinutes,
  getWallMsOfDate,
  getWeekday,
  getZoneOffset,
  isValidTimeZone,
  isWeekend,
  startOfZonedDay,
  toLocalDate,
  toWallClock,
  type LocalDate,
  type WallClock,
} from './zoned-time.ts';

export const CLOCK = token<Clock>('clock');
