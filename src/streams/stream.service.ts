import type { DatabaseHandle } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { VigilError, invalid, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { toIso } from '../lib/time.ts';
import type { Actor, AuditService } from '../audit/audit.service.ts';
import type { Principal } from '../keys/key.service.ts';
import type { ListQueryT } from '../http/common.schemas.ts';
import { mapPage, paginate } from '../http/pagination.ts';
import { parseSandboxUrl } from '../sandbox/scenarios.ts';
import type { SceneService } from '../scenes/scene.service.ts';
import type { SourceManager } from '../sources/source-manager.ts';
import { assertLocationAllowed } from '../tenants/location-access.ts';
import type { CreateStreamBodyT, StreamView, UpdateStreamBodyT } from './stream.schemas.ts';
import { streamRepository, type StreamRow } from './stream.repository.ts';

/** Masks a password in a source URL (rtsp://user:secret@cam → rtsp://user:****@cam) for display and logs. */
export function maskSourceUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]+):[^@/]*@/i, '$1:****@');
}

export function toStreamView(r: StreamRow): StreamView {
  return {
    id: r.id,
    object: 'stream',
    name: r.name,
    source_type: r.source_type,
    source_url: maskSourceUrl(r.source_url),
    location: r.location,
    scene_id: r.scene_id,
    status: r.status as StreamView['status'],
    sandbox: r.sandbox === 1,
    error: r.error,
    last_frame_at: r.last_frame_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** Checks source_url against source_type; the reason names what is wrong. */
export function validateSource(sourceType: string, url: string): void {
  if (sourceType === 'sandbox') {
    const p = parseSandboxUrl(url);
    if (!p.ok) throw new VigilError('unsupported_source', `source_url: ${p.reason}`, { param: 'source_url' });
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('source_url', 'must be an absolute URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const allowed: Record<string, string[]> = {
    rtsp: ['rtsp', 'rtsps'],
    webrtc: ['https', 'http', 'webrtc'],
    mobile: ['mobile', 'https', 'http'],
  };
  if (!allowed[sourceType]?.includes(scheme)) {
    throw new VigilError(
      'unsupported_source',
      `source_url: a ${sourceType} source takes ${allowed[sourceType]?.map((s) => `${s}://`).join(' or ')}, not ${scheme}://`,
      { param: 'source_url' },
    );
  }
  if (scheme !== 'mobile' && !parsed.hostname) throw invalid('source_url', 'must name a host');
}

export class StreamService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      scenes: SceneService;
      sources: SourceManager;
    },
  ) {}

  async create(principal: Principal, actor: Actor, body: CreateStreamBodyT): Promise<StreamView> {
    assertLocationAllowed(principal, body.location);
    validateSource(body.source_type, body.source_url);
    const now = this.deps.clock.now();
    // DESIGN.md "Sandbox": everything a test key creates is simulated and never touches a real source
    const sandbox = body.source_type === 'sandbox' || principal.mode === 'test';
    const row = await this.deps.database.withWriteLock(async (trx) => {
      const scene = await this.deps.scenes.ensureScene(trx, principal.tenantId, body.location);
      const r: StreamRow = {
        id: newId('stream', now),
        tenant_id: principal.tenantId,
        name: body.name,
        source_type: body.source_type,
        source_url: body.source_url,
        location: body.location,
        scene_id: scene.id,
        status: sandbox ? 'live' : 'connecting',
        sandbox: sandbox ? 1 : 0,
        config: '{}',
        error: null,
        last_frame_at: null,
        created_at: toIso(now),
        updated_at: toIso(now),
      };
      await streamRepository.insert(trx, r);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'stream.created', resourceType: 'stream', resourceId: r.id, data: { after: toStreamView(r) } },
      ]);
      return r;
    });
    this.deps.scenes.registerLoaded(row.scene_id);
    this.deps.sources.start(row, { timeZone: this.deps.scenes.timeZoneOf(row.scene_id), since: now - 15 * 60_000 });
    return toStreamView(row);
  }

  async list(principal: Principal, q: ListQueryT & { location?: string }) {
    let qb = streamRepository.listQuery(this.deps.database.db, principal.tenantId, principal.locations);
    if (q.location) qb = qb.where('location', '=', q.location);
    return mapPage(await paginate(qb, 'id', q), toStreamView);
  }

  async get(principal: Principal, id: string): Promise<StreamView> {
    return toStreamView(await this.load(principal, id));
  }

  /** A stream of this tenant that the key may see; anything else is 404 (no existence leaks). */
  async load(principal: Principal, id: string): Promise<StreamRow> {
    const row = await streamRepository.findForTenant(this.deps.database.db, principal.tenantId, id);
    if (!row || (principal.locations && !principal.locations.includes(row.location))) throw notFound('stream', id);
    return row;
  }

  async update(principal: Principal, actor: Actor, id: string, body: UpdateStreamBodyT): Promise<StreamView> {
    const before = await this.load(principal, id);
    if (body.location) assertLocationAllowed(principal, body.location);
    if (body.source_url) validateSource(before.source_type, body.source_url);
    const now = this.deps.clock.now();
    const after = await this.deps.database.withWriteLock(async (trx) => {
      const patch: Partial<StreamRow> = { updated_at: toIso(now) };
      if (body.name !== undefined) patch.name = body.name;
      if (body.source_url !== undefined) patch.source_url = body.source_url;
      if (body.location !== undefined && body.location !== before.location) {
        patch.location = body.location;
        patch.scene_id = (await this.deps.scenes.ensureScene(trx, principal.tenantId, body.location)).id;
      }
      await streamRepository.update(trx, id, patch);
      const r = { ...before, ...patch };
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: principal.tenantId,
          action: 'stream.updated',
          resourceType: 'stream',
          resourceId: id,
          data: { before: toStreamView(before), after: toStreamView(r) },
        },
      ]);
      return r;
    });
    if (after.scene_id !== before.scene_id || after.source_url !== before.source_url) {
      this.deps.scenes.registerLoaded(after.scene_id);
      this.deps.scenes.detachStream(before.scene_id, id);
      this.deps.sources.start(after, { timeZone: this.deps.scenes.timeZoneOf(after.scene_id) });
    }
    return toStreamView(after);
  }

  async remove(principal: Principal, actor: Actor, id: string) {
    const row = await this.load(principal, id);
    this.deps.sources.stop(id);
    await this.deps.database.withWriteLock(async (trx) => {
      await streamRepository.delete(trx, id);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'stream.deleted', resourceType: 'stream', resourceId: id, data: { before: toStreamView(row) } },
      ]);
    });
    this.deps.scenes.detachStream(row.scene_id, id);
    return { id, object: 'stream' as const, deleted: true as const };
  }

  /** Starts the sources of every stream (server start). */
  async startAll(): Promise<void> {
    for (const row of await streamRepository.listRunnable(this.deps.database.db)) {
      this.deps.sources.start(row, { timeZone: this.deps.scenes.timeZoneOf(row.scene_id) });
    }
  }
}
