import type { DetectionRecord } from '../../org/detections/index.ts';
import { WATCHED_KINDS, kindOf, type DetectionKind } from '../../platform/kinds/index.ts';
import type { AlertType, ObservationType } from '../events/index.ts';
import { type KnownSensor, capitalize, describeSensorName } from '../directory/index.ts';

/** Seconds a person may stand in view before it counts as lingering (dwell ≥ 120 s). */
export const LINGERING_DWELL_S = 120;
/** Motion reports closer together than this are one burst: one event, not one per PIR ping. */
export const MOTION_BURST_GAP_MS = 120_000;
/** Local hours counted as night for motion alerts: 23:00–06:00. */
export const NIGHT_HOURS = { from: 23, to: 6 };

export interface WatchFinding {
  kind: 'observation' | 'alert';
  type: ObservationType | AlertType;
  summary: string;
}

/** What the home looks like at the moment of a detection (for "while everyone is away" and "at night"). */
export interface HomeMoment {
  isEmpty(): boolean;
  localHour(at: number): number;
}

interface TrackMemory {
  seen: boolean;
  /** what face recognition said of the track when it was last reported: '', 'unrecognized' or the person id */
  identity: string;
  lingering: boolean;
  lastSeen: number;
}

/** Which watch conditions (tools.ts WATCH_CONDITIONS) each finding satisfies. */
const CONDITIONS_OF: Record<WatchFinding['type'], readonly string[]> = {
  person_detected: ['person'],
  person_recognized: ['recognized_person', 'person'],
  unrecognized_person: ['unrecognized_person', 'person'],
  loitering: ['loitering', 'person'],
  door_opened: ['door_open'],
  door_opened_while_away: ['door_open', 'motion'],
  motion: ['motion'],
  motion_at_night: ['motion'],
  motion_while_away: ['motion'],
  // vehicle_detected: ['vehicle'], animal_detected: ['animal'], …: the table of detection kinds' watches
  ...Object.fromEntries(WATCHED_KINDS.map((k) => [k.watch!.event, [k.watch!.condition]])),
};

export function matchesConditions(type: WatchFinding['type'], conditions: readonly string[] | null): boolean {
  return !conditions || conditions.length === 0 || (CONDITIONS_OF[type] ?? []).some((c) => conditions.includes(c));
}

function nameOf(sensor: KnownSensor): string {
  return describeSensorName(sensor.name);
}

/**
 * Turns the detections of one watch's sensors into observations and alerts. A
 * tracked person, vehicle or animal is reported once, when first seen, not at every sighting; a person
 * still in view after LINGERING_DWELL_S raises one lingering alert; motion is reported per burst.
 * State is per watch, so two watches on one sensor each get their own events.
 */
export class WatchRules {
  private tracks = new Map<string, TrackMemory>();
  private lastMotion = new Map<string, number>();

  evaluate(watchId: string, rec: DetectionRecord, sensor: KnownSensor, home: HomeMoment): WatchFinding[] {
    switch (rec.type) {
      case 'person':
        return this.evaluatePerson(watchId, rec, sensor);
      case 'door_open':
        if (home.isEmpty()) {
          return [{ kind: 'alert', type: 'door_opened_while_away', summary: `The ${sensor.room} was opened while nobody was seen at home.` }];
        }
        return [{ kind: 'observation', type: 'door_opened', summary: `The ${sensor.room} was opened.` }];
      case 'motion': {
        const key = `${watchId}:${rec.stream_id}`;
        const last = this.lastMotion.get(key);
        this.lastMotion.set(key, rec.at);
        if (last !== undefined && rec.at - last < MOTION_BURST_GAP_MS) return [];
        const hour = home.localHour(rec.at);
        if (hour >= NIGHT_HOURS.from || hour < NIGHT_HOURS.to) {
          return [{ kind: 'alert', type: 'motion_at_night', summary: `${capitalize(nameOf(sensor))} detected motion in the ${sensor.room} during the night.` }];
        }
        if (home.isEmpty()) {
          return [
            {
              kind: 'alert',
              type: 'motion_while_away',
              summary: `${capitalize(nameOf(sensor))} detected motion in the ${sensor.room} while nobody was seen at home.`,
            },
          ];
        }
        return [{ kind: 'observation', type: 'motion', summary: `${capitalize(nameOf(sensor))} detected motion in the ${sensor.room}.` }];
      }
      default: {
        const kind = kindOf(rec.type);
        return kind?.watch ? this.evaluateKind(watchId, rec, sensor, kind) : [];
      }
    }
  }

  /**
   * A watched kind of the table of detection kinds (vehicle, animal, …): one observation per
   * tracked object, when first seen. A counted kind's detection names its object only when one
   * arrived (count above 0, a track id); a tracked kind's each sighting does.
   */
  private evaluateKind(watchId: string, rec: DetectionRecord, sensor: KnownSensor, kind: DetectionKind): WatchFinding[] {
    const counted = kind.detector?.report === 'count';
    if (counted && (!rec.count || !rec.track_id)) return [];
    const mem = this.remember(`${watchId}:${rec.track_id ?? rec.id}`, rec.at);
    if (mem.seen) return [];
    mem.seen = true;
    return [{ kind: 'observation', type: kind.watch!.event, summary: `${capitalize(nameOf(sensor))} saw ${kind.watch!.seen(rec)} in the ${sensor.room}.` }];
  }

  private evaluatePerson(watchId: string, rec: DetectionRecord, sensor: KnownSensor): WatchFinding[] {
    const mem = this.remember(`${watchId}:${rec.track_id ?? rec.id}`, rec.at);
    const out: WatchFinding[] = [];
    // face recognition speaks after the track was first seen: a face seen later, or a
    // stranger later recognized, is reported then; a recognized track keeps its identity
    const identity = rec.subtype === 'recognized' && rec.person_id ? rec.person_id : rec.subtype === 'unrecognized' ? 'unrecognized' : '';
    const newIdentity = identity !== '' && identity !== mem.identity && !(mem.identity !== '' && mem.identity !== 'unrecognized');
    if (!mem.seen || newIdentity) {
      const first = !mem.seen;
      mem.seen = true;
      if (identity !== '') mem.identity = identity;
      if (identity === 'unrecognized') {
        out.push({
          kind: 'alert',
          type: 'unrecognized_person',
          summary: `${capitalize(nameOf(sensor))} saw someone it does not recognize at the ${sensor.room}.`,
        });
      } else if (identity !== '') {
        out.push({
          kind: 'observation',
          type: 'person_recognized',
          summary: `${capitalize(nameOf(sensor))} recognized someone you know at the ${sensor.room}.`,
        });
      } else if (first) {
        out.push({ kind: 'observation', type: 'person_detected', summary: `${capitalize(nameOf(sensor))} saw a person at the ${sensor.room}.` });
      }
    }
    // someone the household knows (recognized) is not "lingering" at their own door
    const known = mem.identity !== '' && mem.identity !== 'unrecognized';
    if (!mem.lingering && !known && (rec.dwell_s ?? 0) >= LINGERING_DWELL_S) {
      mem.lingering = true;
      const minutes = Math.floor((rec.dwell_s ?? 0) / 60);
      out.push({
        kind: 'alert',
        type: 'loitering',
        summary: `Someone has been lingering at the ${sensor.room} for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      });
    }
    return out;
  }

  private remember(key: string, at: number): TrackMemory {
    let mem = this.tracks.get(key);
    if (!mem) {
      if (this.tracks.size > 10_000) this.forgetBefore(at - 3600_000);
      mem = { seen: false, identity: '', lingering: false, lastSeen: at };
      this.tracks.set(key, mem);
    }
    mem.lastSeen = at;
    return mem;
  }

  private forgetBefore(cutoff: number): void {
    for (const [k, m] of this.tracks) if (m.lastSeen < cutoff) this.tracks.delete(k);
    for (const [k, at] of this.lastMotion) if (at < cutoff) this.lastMotion.delete(k);
  }
}
