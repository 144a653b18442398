import { type Actor, assertOwner, type Principal, findTenant, updateTenantSettings } from '../../platform/identity/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import { type Clock, toIso, formatClock, isValidTimeZone } from '../../platform/time/index.ts';
import { VigilError, invalid, notFound, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { lookupCity } from '../agent/index.ts';
import type { EventService } from '../events/index.ts';
import { HOME_SENSORS } from '../../ingest/sandbox/index.ts';
import {
  type SceneEngine,
  freshnessFields,
  listScenesOfTenant,
  mergeFreshness,
  type SceneFreshness,
  staleSentence,
  updateScene,
  type SceneService,
} from '../../org/scenes/index.ts';
import type { SourceManager } from '../../org/sources/index.ts';
import { type StreamService, assertBrokerAllowed, decideSourceType, findStream, listStreamsOfTenant, type PublishInfo } from '../../org/streams/index.ts';
import { checkBrokerAddress } from '../../platform/config/index.ts';
import { contactSentence } from './contact-sentence.ts';
import { checkDeviceTopic, effectiveBroker, maskBroker, sourceUrlOf } from './household-broker.ts';
import { latestDetectionOfTypes } from '../../org/detections/index.ts';
import {
  capitalize,
  describeSensorName,
  DEMO_HOME_LOCATION,
  mergeHomeSettings,
  parseHomeSettings,
  toLocationKey,
  type HomeSettings,
  type HouseholdDirectory,
  type BoundaryRow,
  clearBoundary,
  earliestDetectionAt,
  hasSensor,
  insertBoundary,
  insertRoom,
  insertSensor,
  latestDetections,
  listActiveBoundaries,
  listRooms,
  listSensors,
  renameRoom,
  type RoomRow,
  type SensorRow,
  setSensorMuted,
} from '../directory/index.ts';
import { CACHE_TOPICS, EVERY_KEY, type CacheInvalidation } from '../../platform/coordination/index.ts';
import type { BoundaryView, HouseholdView, MqttBrokerView, SensorView } from './household.schemas.ts';

export type SensorKind = SensorRow['kind'];

export interface PlaceRef {
  room?: string;
  sensor_id?: string;
}

export interface HomeUpdate {
  city?: string;
  lat?: number;
  lon?: number;
  time_zone?: string;
  rename_room?: { from: string; to: string };
  /** the face recognition opt-in */
  face_recognition?: boolean;
}

export interface NewSensor {
  name: string;
  kind: SensorKind;
  room: string;
  source_url: string;
  /** the kind as the user said it (rtsp, http for MJPEG/HLS, webrtc for a WHIP publisher); else taken from the URL */
  source_type?: string;
}

/** Everything about a household that the agent's context and the views are built from. */
export interface HomeSnapshot {
  tenantId: string;
  settings: HomeSettings;
  rooms: RoomRow[];
  sensors: SensorRow[];
  boundaries: BoundaryRow[];
}

const SYSTEM = { keyId: null, operator: 'household-provisioning' } as const;

function sensorLabel(s: Pick<SensorRow, 'name'>): string {
  return describeSensorName(s.name);
}

export function toSensorView(s: SensorRow, bounded: boolean): SensorView {
  return {
    id: s.id,
    object: 'sensor',
    name: s.name,
    kind: s.kind,
    room: s.room,
    location: s.location,
    sandbox: s.sandbox === 1,
    status: s.status,
    muted: s.muted === 1,
    left_alone: bounded,
    created_at: s.created_at,
  };
}

/**
 * The household model: rooms and sensors (each sensor is a stream of the
 * household tenant, so it flows through the same scene engine and pipeline as Surface B), the
 * home's place and zone, muted sensors and boundaries. Every change is audited in its own
 * transaction together with its event-log row (and so its webhook deliveries).
 */
export class HouseholdService {
  private provisioning = new Map<string, Promise<void>>();
  private provisioned = new Set<string>();

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      streams: StreamService;
      scenes: SceneService;
      engine: SceneEngine;
      sources: SourceManager;
      directory: HouseholdDirectory;
      events: EventService;
      /** the directory on every node re-reads a household announced here after a change commits */
      invalidation: CacheInvalidation;
      /** the install's default broker for sensors added by topic, and whether brokers may be private (VIGIL_MQTT_*) */
      mqtt?: { defaultBroker?: string | null; allowPrivate: boolean };
    },
  ) {}

  /**
   * A test-key household gets the simulated home on first use: the HOME_SENSORS as
   * sandbox streams in their rooms, in Lisbon unless the home already has a place. Safe to call
   * on every request: after the first time it is a set lookup.
   */
  async ensureHome(principal: Principal): Promise<void> {
    if (principal.mode !== 'test' || this.provisioned.has(principal.tenantId)) return;
    let running = this.provisioning.get(principal.tenantId);
    if (!running) {
      running = this.provisionSandboxHome(principal).finally(() => this.provisioning.delete(principal.tenantId));
      this.provisioning.set(principal.tenantId, running);
    }
    await running;
    this.provisioned.add(principal.tenantId);
  }

  private async provisionSandboxHome(principal: Principal): Promise<void> {
    const { database, clock } = this.deps;
    const tenantId = principal.tenantId;
    const tenant = await findTenant(database.db, tenantId);
    if (!tenant) throw notFound('household', tenantId);
    if (parseHomeSettings(tenant.settings).provisioned_at) return;
    let settings = parseHomeSettings(tenant.settings);
    if (settings.lat === null) {
      await database.withWriteLock(async (trx) => {
        const fresh = await findTenant(trx, tenantId);
        await updateTenantSettings(trx, tenantId, mergeHomeSettings(fresh!.settings, { ...DEMO_HOME_LOCATION }));
      });
      settings = { ...settings, ...DEMO_HOME_LOCATION };
    }
    const existing = await listStreamsOfTenant(database.db, tenantId);
    for (const [i, spec] of HOME_SENSORS.entries()) {
      const room = await this.ensureRoom(tenantId, spec.room, settings.time_zone);
      let stream = existing.find((s) => s.location === room.location && s.name === spec.name);
      if (!stream) {
        const view = await this.deps.streams.create(principal, SYSTEM, {
          name: spec.name,
          source_type: 'sandbox',
          source_url: `sandbox://${room.location}?scenario=${spec.scenario}&seed=${(i + 1) * 7}`,
          location: room.location,
        });
        stream = (await findStream(database.db, tenantId, view.id))!;
      }
      await this.attachSensor(tenantId, stream.id, room.id, spec.kind);
    }
    await database.withWriteLock(async (trx) => {
      const fresh = await findTenant(trx, tenantId);
      await updateTenantSettings(trx, tenantId, mergeHomeSettings(fresh!.settings, { provisioned_at: toIso(clock.now()) }));
      await this.deps.audit.appendIn(trx, SYSTEM, [
        {
          tenantId,
          action: 'household.provisioned',
          resourceType: 'household',
          resourceId: tenantId,
          data: { sensors: HOME_SENSORS.map((s) => s.name), location: DEMO_HOME_LOCATION },
        },
      ]);
    });
    await this.refresh(tenantId);
  }

  /** The room of that name, created (with its scene in the home's zone) when new. */
  private async ensureRoom(tenantId: string, name: string, timeZone: string): Promise<RoomRow> {
    const now = this.deps.clock.now();
    return this.deps.database.withWriteLock(async (trx) => {
      const rooms = await listRooms(trx, tenantId);
      const found = rooms.find((r) => r.name.toLowerCase() === name.toLowerCase().trim());
      if (found) return found;
      let location = toLocationKey(name);
      for (let n = 2; rooms.some((r) => r.location === location); n++) location = `${toLocationKey(name)}_${n}`;
      const row: RoomRow = {
        id: newId('room', now),
        tenant_id: tenantId,
        name: name.toLowerCase().trim(),
        location,
        created_at: toIso(now),
        updated_at: toIso(now),
      };
      await insertRoom(trx, row);
      // the scene exists before the stream so the sandbox starts in the home's zone, not UTC
      const scene = await this.deps.scenes.ensureScene(trx, tenantId, location);
      if (scene.time_zone !== timeZone) {
        await updateScene(trx, scene.id, { time_zone: timeZone });
        this.deps.engine.register({ ...scene, time_zone: timeZone });
      }
      return row;
    });
  }

  private async attachSensor(tenantId: string, streamId: string, roomId: string, kind: SensorKind): Promise<void> {
    const now = toIso(this.deps.clock.now());
    await this.deps.database.withWriteLock(async (trx) => {
      if (!(await hasSensor(trx, streamId)))
        await insertSensor(trx, { stream_id: streamId, tenant_id: tenantId, room_id: roomId, kind, muted: 0, muted_at: null, created_at: now });
    });
  }

  private async refresh(tenantId: string): Promise<void> {
    await this.deps.invalidation.publish(CACHE_TOPICS.household, tenantId);
  }

  async snapshot(tenantId: string, db: DbExecutor = this.deps.database.db): Promise<HomeSnapshot> {
    const tenant = await findTenant(db, tenantId);
    const [rooms, sensors, boundaries] = await Promise.all([listRooms(db, tenantId), listSensors(db, tenantId), listActiveBoundaries(db, tenantId)]);
    return { tenantId, settings: parseHomeSettings(tenant?.settings ?? '{}'), rooms, sensors, boundaries };
  }

  async view(principal: Principal): Promise<HouseholdView> {
    await this.ensureHome(principal);
    const tenant = await findTenant(this.deps.database.db, principal.tenantId);
    const home = await this.snapshot(principal.tenantId);
    return {
      id: principal.tenantId,
      object: 'household',
      name: tenant?.name ?? '',
      city: home.settings.city,
      lat: home.settings.lat,
      lon: home.settings.lon,
      time_zone: home.settings.time_zone,
      face_recognition: home.settings.face_recognition,
      rooms: home.rooms.map((r) => ({
        id: r.id,
        name: r.name,
        location: r.location,
        left_alone: home.boundaries.some((b) => b.room_id === r.id && !b.sensor_id),
      })),
      sensors: home.sensors.map((s) => toSensorView(s, isBounded(home, s))),
      boundaries: home.boundaries.map((b) => toBoundaryView(b, home)),
    };
  }

  /**
   * Since when the household has readings from these sensors (all when none given), never
   * counting a muted sensor or one left alone: the agent says how far back its answer reaches.
   */
  async getReadingsSince(tenantId: string, sensorIds?: string[]): Promise<{ since: number | null; now: number }> {
    const home = await this.snapshot(tenantId);
    const reachable = home.sensors.filter((s) => (!sensorIds || sensorIds.includes(s.id)) && s.muted !== 1 && !isBounded(home, s));
    return {
      since: await earliestDetectionAt(
        this.deps.database.db,
        reachable.map((s) => s.id),
      ),
      now: this.deps.clock.now(),
    };
  }

  /** The sensors behind ids, all of this household; muted or left-alone ones refused (watches, descriptions). */
  async requireReachableSensors(tenantId: string, ids: string[], db: DbExecutor = this.deps.database.db): Promise<SensorRow[]> {
    const home = await this.snapshot(tenantId, db);
    return ids.map((id) => {
      const s = home.sensors.find((x) => x.id === id);
      if (!s) throw notFound('sensor', id, 'sensor_ids');
      assertReachable(home, s);
      return s;
    });
  }

  async muteSensor(principal: Principal, actor: Actor, sensorId: string, muted: boolean): Promise<SensorView> {
    if (!muted) assertOwner(principal, 'unmute a sensor'); // members add mutes, never lift them
    const now = this.deps.clock.now();
    const view = await this.deps.database
      .withWriteLock(async (trx) => {
        const home = await this.snapshot(principal.tenantId, trx);
        const s = home.sensors.find((x) => x.id === sensorId);
        if (!s) throw notFound('sensor', sensorId, 'sensor_id');
        if ((s.muted === 1) === muted)
          throw new VigilError('validation_failed', `${s.name} is ${muted ? 'already muted' : 'not muted'}.`, { param: 'sensor_id' });
        await setSensorMuted(trx, sensorId, muted, toIso(now));
        if (muted) this.stopLooking(principal.tenantId, [s], { sensorId, muted: true });
        const after: SensorRow = { ...s, muted: muted ? 1 : 0, muted_at: muted ? toIso(now) : null };
        const action = muted ? 'sensor.muted' : 'sensor.unmuted';
        await this.deps.audit.appendIn(trx, actor, [
          { tenantId: principal.tenantId, action, resourceType: 'sensor', resourceId: sensorId, data: { name: s.name, room: s.room } },
        ]);
        await this.deps.events.recordIn(trx, {
          tenantId: principal.tenantId,
          kind: action,
          type: action,
          room: s.room,
          summary: muted
            ? `${capitalize(sensorLabel(s))} was muted: no watching, no descriptions, no events from it.`
            : `${capitalize(sensorLabel(s))} was unmuted.`,
          data: { sensor_id: s.id, name: s.name },
          occurredAt: now,
        });
        return toSensorView(after, isBounded(home, after));
      })
      .finally(() => this.refresh(principal.tenantId));
    await this.followGate(principal.tenantId, [sensorId]);
    return view;
  }

  /** "Leave the nursery alone": binds every key of the household, present and future. */
  async setBoundary(principal: Principal, actor: Actor, place: PlaceRef): Promise<BoundaryView> {
    const now = this.deps.clock.now();
    const view = await this.deps.database
      .withWriteLock(async (trx) => {
        const home = await this.snapshot(principal.tenantId, trx);
        const target = resolvePlace(home, place);
        const already = home.boundaries.find((b) =>
          target.sensor
            ? b.sensor_id === target.sensor.id || (!b.sensor_id && b.room_id === target.sensor.room_id)
            : !b.sensor_id && b.room_id === target.room!.id,
        );
        if (already)
          throw new VigilError('validation_failed', `${capitalize(target.label)} is already left alone.`, { param: place.sensor_id ? 'sensor_id' : 'room' });
        const row: BoundaryRow = {
          id: newId('bnd', now),
          tenant_id: principal.tenantId,
          room_id: target.sensor ? null : target.room!.id,
          sensor_id: target.sensor?.id ?? null,
          set_at: toIso(now),
          set_by_key_id: actor.keyId,
          cleared_at: null,
          cleared_by_key_id: null,
        };
        await insertBoundary(trx, row);
        const covered = target.sensor ? [target.sensor] : home.sensors.filter((x) => x.room_id === target.room!.id);
        this.stopLooking(principal.tenantId, covered, target.sensor ? { sensorId: target.sensor.id } : { roomId: target.room!.id });
        await this.deps.events.withdrawDeliveriesIn(
          trx,
          principal.tenantId,
          covered.map((x) => x.id),
        );
        const v = toBoundaryView(row, home);
        await this.deps.audit.appendIn(trx, actor, [
          { tenantId: principal.tenantId, action: 'boundary.set', resourceType: 'boundary', resourceId: row.id, data: v },
        ]);
        await this.deps.events.recordIn(trx, {
          tenantId: principal.tenantId,
          kind: 'boundary.set',
          type: 'boundary.set',
          room: v.room,
          summary: `${capitalize(target.label)} is left alone: no watching, no looking, no events from it.`,
          data: { boundary_id: row.id, room: v.room, sensor_id: row.sensor_id },
          occurredAt: now,
        });
        return v;
      })
      .finally(() => this.refresh(principal.tenantId));
    await this.followGate(principal.tenantId);
    return view;
  }

  /** Lifting a boundary takes an explicit request naming the room or sensor it is on. */
  async clearBoundary(principal: Principal, actor: Actor, place: PlaceRef): Promise<BoundaryView> {
    assertOwner(principal, 'lift a boundary'); // members add boundaries, never lift them
    const now = this.deps.clock.now();
    const view = await this.deps.database.withWriteLock(async (trx) => {
      const home = await this.snapshot(principal.tenantId, trx);
      const target = resolvePlace(home, place);
      const row = home.boundaries.find((b) => (target.sensor ? b.sensor_id === target.sensor.id : !b.sensor_id && b.room_id === target.room!.id));
      if (!row) throw notFound('boundary on', target.label, place.sensor_id ? 'sensor_id' : 'room');
      await clearBoundary(trx, row.id, toIso(now), actor.keyId);
      const v = { ...toBoundaryView(row, home), cleared_at: toIso(now) };
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'boundary.cleared', resourceType: 'boundary', resourceId: row.id, data: v },
      ]);
      await this.deps.events.recordIn(trx, {
        tenantId: principal.tenantId,
        kind: 'boundary.cleared',
        type: 'boundary.cleared',
        room: v.room,
        summary: `${capitalize(target.label)} can be watched again.`,
        data: { boundary_id: row.id, room: v.room, sensor_id: row.sensor_id },
        occurredAt: now,
      });
      return v;
    });
    await this.refresh(principal.tenantId);
    await this.followGate(principal.tenantId);
    return view;
  }

  /** What a room or sensor shows now, in plain words; refused when muted or left alone. */
  async describe(
    principal: Principal,
    actor: Actor,
    place: PlaceRef,
  ): Promise<{ subject: string; text: string; people: number; vehicles: number; sensorIds: string[]; freshness?: ReturnType<typeof freshnessFields> }> {
    await this.ensureHome(principal);
    const home = await this.snapshot(principal.tenantId);
    const target = resolvePlace(home, place);
    const sensors = target.sensor ? [target.sensor] : home.sensors.filter((s) => s.room_id === target.room!.id);
    if (sensors.length === 0) return { subject: target.name, text: `There are no sensors in the ${target.name}.`, people: 0, vehicles: 0, sensorIds: [] };
    for (const s of sensors) assertReachable(home, s);
    const now = this.deps.clock.now();
    const tz = home.settings.time_zone;
    const recent = await latestDetections(
      this.deps.database.db,
      sensors.map((s) => s.id),
      now - 24 * 3600_000,
      500,
    );
    const parts: string[] = [];
    let people = 0;
    let vehicles = 0;
    const fresh: SceneFreshness[] = [];
    for (const scene of new Set(sensors.filter((s) => s.kind === 'camera').map((s) => s.scene_id))) {
      const st = this.deps.engine.snapshot(scene, now);
      people += st?.people ?? 0;
      vehicles += st?.vehicles ?? 0;
      fresh.push(await this.deps.scenes.freshness(scene));
    }
    // a count is stated with when it is from; stale cameras give their last reading, never "right now" (docs/decisions.md, "Freshness")
    const freshness = fresh.length ? mergeFreshness(fresh) : undefined;
    if (freshness?.stale) {
      parts.push(staleSentence({ freshness, now, timeZone: tz, place: `the ${target.name}`, counts: vehicles ? { people, vehicles } : { people } }));
    } else if (sensors.some((s) => s.kind === 'camera')) {
      const who = people === 0 ? 'nobody' : people === 1 ? 'one person' : `${people} people`;
      const cars = vehicles ? ` and ${vehicles === 1 ? 'one vehicle' : `${vehicles} vehicles`}` : '';
      const lastPerson = recent.find((d) => d.type === 'person');
      const seen = people === 0 && lastPerson ? ` (last person seen at ${formatClock(lastPerson.at, tz)})` : '';
      parts.push(`The ${target.name} shows ${who}${cars} right now${seen}.`);
    }
    for (const s of sensors.filter((x) => x.kind !== 'camera')) {
      // a contact over MQTT reports both ways: its state now, with when it changed (docs/decisions.md, "Sensors over MQTT")
      if (s.kind === 'contact' && s.source_type === 'mqtt' && s.sandbox !== 1) {
        parts.push(await this.contactState(s, tz));
        continue;
      }
      const type = s.kind === 'contact' ? 'door_open' : 'motion';
      const last = recent.find((d) => d.stream_id === s.id && d.type === type);
      const what = s.kind === 'contact' ? `${capitalize(sensorLabel(s))} last opened` : `${capitalize(sensorLabel(s))} last saw motion`;
      parts.push(last ? `${what} at ${formatClock(last.at, tz)}.` : `${capitalize(sensorLabel(s))} has reported nothing in the last 24 hours.`);
    }
    await this.deps.audit.append(actor, {
      tenantId: principal.tenantId,
      action: 'scene.described',
      resourceType: target.sensor ? 'sensor' : 'room',
      resourceId: target.sensor?.id ?? target.room!.id,
      data: { people, vehicles },
      scope: target.sensor ? { location: target.sensor.location, streamId: target.sensor.id } : { location: target.room!.location },
    });
    return {
      subject: target.name,
      text: parts.join(' '),
      people,
      vehicles,
      sensorIds: sensors.map((s) => s.id),
      ...(freshness ? { freshness: freshnessFields(freshness) } : {}),
    };
  }

  /**
   * "Is the back door open?": the contact's last state change as stored (door_open or door_closed,
   * however long ago), and why the sensor may not be telling now (offline: battery, silence, broker).
   */
  private async contactState(s: SensorRow, tz: string): Promise<string> {
    const last = await latestDetectionOfTypes(this.deps.database.db, s.id, ['door_open', 'door_closed']);
    const row = await findStream(this.deps.database.db, s.tenant_id, s.id);
    // the wording is shared with the agent's test simulator (src/home/household/contact-sentence.ts)
    return contactSentence({
      subject: /door|window|gate/i.test(s.room) ? `The ${s.room}` : capitalize(sensorLabel(s)),
      sensor: sensorLabel(s),
      ...(last ? { last: { open: last.type === 'door_open', at: last.at } } : {}),
      status: row?.status ?? 'live',
      error: row?.error ?? null,
      heardAt: row?.last_frame_at ? Date.parse(row.last_frame_at) : null,
      now: this.deps.clock.now(),
      timeZone: tz,
    });
  }

  /** "Add the camera at rtsp://… as the garage camera". A test key's sensor is simulated. */
  async addSensor(principal: Principal, actor: Actor, input: NewSensor): Promise<SensorView & { publish?: PublishInfo }> {
    await this.ensureHome(principal);
    const home = await this.snapshot(principal.tenantId);
    const name = input.name.trim().replace(/^\w/, (c) => c.toUpperCase());
    if (home.sensors.some((s) => s.name.toLowerCase() === name.toLowerCase())) throw invalid('name', `a sensor named "${name}" already exists`);
    // every kind an organization can add, from what was said and the URL; asked when unclear (src/org/streams/source-kind.ts)
    const decided = decideSourceType({ url: input.source_url, said: input.source_type });
    if (!decided.ok) throw new VigilError('unsupported_source', `source_url: ${decided.ask}`, { param: 'source_url' });
    if (decided.kind === 'mqtt' && input.kind === 'camera') {
      throw new VigilError(
        'unsupported_source',
        'source_url: an mqtt:// address is a sensor (a door contact or a motion sensor), not a camera; say which it is.',
        { param: 'kind' },
      );
    }
    const sourceType = decided.kind;
    // a sensor on an MQTT broker reads as its kind's Zigbee2MQTT preset (docs/decisions.md, "Sensors over MQTT")
    const sensor = sourceType === 'mqtt' ? { preset: mqttPresetOf(input.kind) } : undefined;
    const room = await this.ensureRoom(principal.tenantId, input.room, home.settings.time_zone);
    const stream = await this.deps.streams.create(principal, actor, {
      name,
      source_type: sourceType,
      source_url: input.source_url,
      location: room.location,
      ...(sensor ? { sensor } : {}),
    });
    const now = this.deps.clock.now();
    await this.deps.database.withWriteLock(async (trx) => {
      await insertSensor(trx, {
        stream_id: stream.id,
        tenant_id: principal.tenantId,
        room_id: room.id,
        kind: input.kind,
        muted: 0,
        muted_at: null,
        created_at: toIso(now),
      });
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'sensor.added',
          resourceType: 'sensor',
          resourceId: stream.id,
          data: { name, kind: input.kind, room: room.name },
          scope: { location: room.location, streamId: stream.id },
        },
      ]);
    });
    await this.refresh(principal.tenantId);
    const row = (await listSensors(this.deps.database.db, principal.tenantId)).find((s) => s.id === stream.id)!;
    return stream.publish ? { ...toSensorView(row, false), publish: stream.publish } : toSensorView(row, false);
  }

  /** The broker sensors added by topic are on: the household's own, else the install's (docs/decisions.md, "A household's default broker"). */
  async mqttBroker(principal: Principal): Promise<MqttBrokerView> {
    await this.ensureHome(principal);
    const { settings } = await this.snapshot(principal.tenantId);
    const b = effectiveBroker(settings.mqtt_broker, this.deps.mqtt?.defaultBroker);
    return {
      object: 'mqtt_broker',
      url: b ? maskBroker(b.url) : null,
      source: b?.source ?? null,
      has_credentials: b ? /^[a-z]+:\/\/[^/]*@/i.test(b.url) : false,
    };
  }

  /** The broker sensors added by topic would be on, as said in replies (no credentials); null when none. */
  defaultBrokerOf(settings: HomeSettings): string | null {
    const b = effectiveBroker(settings.mqtt_broker, this.deps.mqtt?.defaultBroker);
    return b ? maskBroker(b.url) : null;
  }

  /** Sets (or, with null, clears) the household's own default broker; owners only, audited without credentials. */
  async setMqttBroker(principal: Principal, actor: Actor, url: string | null): Promise<MqttBrokerView> {
    assertOwner(principal, "set the household's MQTT broker");
    await this.ensureHome(principal);
    let value: string | null = null;
    if (url !== null) {
      const trimmed = url.trim();
      const problem = checkBrokerAddress(trimmed);
      if (problem) throw invalid('url', problem);
      value = trimmed.replace(/\/+$/, '');
      try {
        await assertBrokerAllowed(sourceUrlOf(value, 'probe'), { allowPrivate: this.deps.mqtt?.allowPrivate ?? false });
      } catch (err) {
        if (!(err instanceof VigilError)) throw err;
        const detail = err.message.replace(/^source_url:\s*/, '');
        throw new VigilError(err.code, `url: ${detail}`, { param: 'url', errors: [{ param: 'url', message: detail }] });
      }
    }
    await this.deps.database.withWriteLock(async (trx) => {
      const tenant = await findTenant(trx, principal.tenantId);
      const before = parseHomeSettings(tenant!.settings).mqtt_broker;
      await updateTenantSettings(trx, principal.tenantId, mergeHomeSettings(tenant!.settings, { mqtt_broker: value }));
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'household.mqtt_broker_set',
          resourceType: 'household',
          resourceId: principal.tenantId,
          data: { before: before ? maskBroker(before) : null, after: value ? maskBroker(value) : null },
        },
      ]);
    });
    await this.refresh(principal.tenantId);
    return this.mqttBroker(principal);
  }

  /**
   * "Add the back door sensor, it's zigbee2mqtt/back_door": a contact or motion sensor on the
   * household's default broker, read with its kind's Zigbee2MQTT preset. Without a default broker
   * nothing is added and the error says so.
   */
  async addSensorByTopic(
    principal: Principal,
    actor: Actor,
    input: { name: string; kind: 'contact' | 'motion'; room: string; topic: string },
  ): Promise<SensorView & { topic: string; broker: string }> {
    const problem = checkDeviceTopic(input.topic);
    if (problem) throw invalid('topic', problem);
    const { settings } = await this.snapshot(principal.tenantId);
    const broker = effectiveBroker(settings.mqtt_broker, this.deps.mqtt?.defaultBroker);
    if (!broker)
      throw invalid('topic', 'this household has no default MQTT broker yet; give the whole address (mqtt://broker:1883/<topic>) or set the broker first');
    const sensor = await this.addSensor(principal, actor, {
      name: input.name,
      kind: input.kind,
      room: input.room,
      source_url: sourceUrlOf(broker.url, input.topic),
      source_type: 'mqtt',
    });
    return { ...sensor, topic: input.topic, broker: maskBroker(broker.url) };
  }

  /** The home's place and zone, or a room's name. Scenes follow the zone, and sandbox sensors restart in it. */
  async updateHome(principal: Principal, actor: Actor, input: HomeUpdate): Promise<HouseholdView> {
    await this.ensureHome(principal);
    const patch: Partial<HomeSettings> = {};
    if (input.city !== undefined && (input.lat === undefined || input.lon === undefined)) {
      const found = lookupCity(input.city);
      if (found.status === 'ambiguous') throw invalid('city', `several places are called ${input.city}: ${found.options.join('; ')}`);
      if (found.status === 'unknown') throw invalid('city', `no city called ${input.city} is known; give coordinates instead`);
      Object.assign(patch, { city: found.city, lat: found.lat, lon: found.lon, time_zone: input.time_zone ?? found.timeZone });
    } else {
      if (input.city !== undefined) patch.city = input.city;
      if (input.lat !== undefined && input.lon !== undefined) Object.assign(patch, { lat: input.lat, lon: input.lon });
      if ((input.lat === undefined) !== (input.lon === undefined)) throw invalid(input.lat === undefined ? 'lat' : 'lon', 'latitude and longitude go together');
      if (input.lat !== undefined && input.city === undefined) patch.city = null;
    }
    if (input.face_recognition !== undefined) patch.face_recognition = input.face_recognition;
    if (input.time_zone !== undefined) {
      if (!isValidTimeZone(input.time_zone)) throw invalid('time_zone', `"${input.time_zone}" is not an IANA time zone (e.g. Europe/Lisbon)`);
      patch.time_zone = input.time_zone;
    }
    const now = this.deps.clock.now();
    const zoneChanged = await this.deps.database.withWriteLock(async (trx) => {
      const tenant = await findTenant(trx, principal.tenantId);
      const before = parseHomeSettings(tenant!.settings);
      if (input.rename_room) {
        const rooms = await listRooms(trx, principal.tenantId);
        const from = rooms.find((r) => r.name.toLowerCase() === input.rename_room!.from.toLowerCase().trim());
        if (!from) throw notFound('room', input.rename_room.from, 'rename_room.from');
        const to = input.rename_room.to.toLowerCase().trim();
        if (!to) throw invalid('rename_room.to', 'must not be empty');
        if (rooms.some((r) => r !== from && r.name === to)) throw invalid('rename_room.to', `there is already a room called ${to}`);
        await renameRoom(trx, from.id, to, toIso(now));
      }
      if (Object.keys(patch).length) await updateTenantSettings(trx, principal.tenantId, mergeHomeSettings(tenant!.settings, patch));
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'household.updated',
          resourceType: 'household',
          resourceId: principal.tenantId,
          data: { before, change: input },
        },
      ]);
      if (patch.time_zone && patch.time_zone !== before.time_zone) {
        const scenes = await listScenesOfTenant(trx, principal.tenantId);
        for (const s of scenes) {
          await updateScene(trx, s.id, { time_zone: patch.time_zone, updated_at: toIso(now) });
          this.deps.engine.register({ ...s, time_zone: patch.time_zone });
        }
        return true;
      }
      return false;
    });
    if (zoneChanged) {
      // sandbox activity follows the home's local day, so the generators restart in the new zone
      for (const row of await listStreamsOfTenant(this.deps.database.db, principal.tenantId)) {
        if (row.sandbox) this.deps.sources.start(row, { timeZone: patch.time_zone });
      }
    }
    await this.refresh(principal.tenantId);
    return this.view(principal);
  }

  /**
   * Real cameras follow the gate: one that is muted or left alone is stopped, so its
   * frames are not even decoded; one looked at again is started. Simulated sensors keep running
   * (their readings are dropped by the pipeline's gate), so resuming needs nothing here.
   */
  private async followGate(tenantId: string, sensorIds?: string[]): Promise<void> {
    const home = this.deps.directory.home(tenantId);
    for (const s of home?.sensors ?? []) {
      if (sensorIds && !sensorIds.includes(s.id)) continue;
      const row = await findStream(this.deps.database.db, tenantId, s.id);
      if (!row || row.sandbox) continue;
      if (this.deps.directory.withheldReason(s.id)) this.deps.sources.stop(s.id);
      else if (!this.deps.sources.isLive(s.id)) this.deps.sources.start(row);
    }
  }

  /**
   * A mute or boundary written on another node is applied here too once the
   * directory has re-read the household (it subscribes first): the sensor's scene forgets it and a
   * real camera decoded on this node stops. Starting a camera again is left to the node that runs
   * it (the writer's followGate here; stream ownership in a cluster), so a resume never starts a
   * second copy of a camera. Returns the unsubscribe.
   */
  followChanges(invalidation: CacheInvalidation): () => void {
    return invalidation.subscribe(CACHE_TOPICS.household, (key) => {
      const now = this.deps.clock.now();
      const homes = key === EVERY_KEY ? this.deps.directory.allHomes() : [this.deps.directory.home(key)];
      for (const s of homes.flatMap((h) => h?.sensors ?? [])) {
        if (!this.deps.directory.withheldReason(s.id)) continue;
        this.deps.engine.removeStream(s.sceneId, s.id, now);
        if (this.deps.sources.isLive(s.id)) this.deps.sources.stop(s.id);
      }
    });
  }

  /**
   * "Stop looking" takes effect inside the transaction that records it: the ingest
   * gate drops these sensors' detections from now on, and their scenes forget what they showed,
   * so nothing from before reads as "right now" once looking resumes.
   */
  private stopLooking(tenantId: string, sensors: SensorRow[], what: { sensorId?: string; roomId?: string; muted?: boolean }): void {
    this.deps.directory.withhold(tenantId, what);
    for (const s of sensors) this.deps.engine.removeStream(s.scene_id, s.id, this.deps.clock.now());
  }
}

/** The Zigbee2MQTT preset a household sensor of this kind reads its device by. */
function mqttPresetOf(kind: SensorKind): string {
  return kind === 'contact' ? 'contact' : 'occupancy';
}

function isBounded(home: HomeSnapshot, s: SensorRow): boolean {
  return home.boundaries.some((b) => b.sensor_id === s.id || (!b.sensor_id && b.room_id === s.room_id));
}

/** Refuses a muted sensor or one under a boundary, saying which and how to lift it. */
function assertReachable(home: HomeSnapshot, s: SensorRow): void {
  const b = home.boundaries.find((x) => x.sensor_id === s.id || (!x.sensor_id && x.room_id === s.room_id));
  if (b) {
    const what = b.sensor_id ? sensorLabel(s) : `the ${s.room}`;
    throw new VigilError('boundary_in_effect', `You asked me to leave ${what} alone; that has to be lifted first ("you can watch ${what} again").`, {
      param: 'sensor_id',
      extra: { reason: 'boundary' },
    });
  }
  if (s.muted === 1)
    throw new VigilError('boundary_in_effect', `${capitalize(sensorLabel(s))} is muted; unmute it first.`, { param: 'sensor_id', extra: { reason: 'muted' } });
}

function resolvePlace(home: HomeSnapshot, place: PlaceRef): { room?: RoomRow; sensor?: SensorRow; name: string; label: string } {
  if (place.sensor_id) {
    const sensor = home.sensors.find((s) => s.id === place.sensor_id);
    if (!sensor) throw notFound('sensor', place.sensor_id, 'sensor_id');
    return { sensor, name: sensor.name.toLowerCase(), label: sensorLabel(sensor) };
  }
  if (place.room) {
    const wanted = place.room.toLowerCase().trim();
    const room = home.rooms.find((r) => r.name === wanted || r.location === wanted || r.location === toLocationKey(wanted));
    if (!room) throw notFound('room', place.room, 'room');
    return { room, name: room.name, label: `the ${room.name}` };
  }
  throw invalid('room', 'name a room or a sensor');
}

function toBoundaryView(b: BoundaryRow, home: HomeSnapshot): BoundaryView {
  const sensor = b.sensor_id ? home.sensors.find((s) => s.id === b.sensor_id) : undefined;
  const room = home.rooms.find((r) => r.id === (b.room_id ?? sensor?.room_id));
  return {
    id: b.id,
    object: 'boundary',
    room: b.sensor_id ? null : (room?.name ?? null),
    sensor_id: b.sensor_id,
    set_at: b.set_at,
    cleared_at: b.cleared_at,
  };
}
