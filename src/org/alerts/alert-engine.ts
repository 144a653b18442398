import type { Actor } from '../../platform/identity/index.ts';
import type { DbExecutor } from '../../platform/db/index.ts';
import type { DetectionRecord } from '../detections/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import type { PipelineHook } from '../pipeline/index.ts';
import { type SceneState, toDetectionView } from '../scenes/index.ts';
import type { EventSink } from '../../platform/outbox/index.ts';
import { alertRepository, type AlertRow } from './alert.repository.ts';
import { alertRuleRepository, type AlertRuleRow } from './alert-rule.repository.ts';
import { toAlertView } from './alert.service.ts';
import { compileRule, evaluateRule, type CompiledRule } from './rule-condition.ts';
import { CACHE_TOPICS, EVERY_KEY, type CacheInvalidation } from '../../platform/coordination/index.ts';

export const ALERT_RULES_ACTOR: Actor = { keyId: null, operator: 'alert-rules' };

interface Firing {
  rule: CompiledRule;
  rec: DetectionRecord;
  observed: number | null;
}

/**
 * Evaluates alert rules inside the detection pipeline. onDetection is synchronous
 * and touches only memory: the tenant's compiled rules, most rejected by detection type on the
 * first comparison. Firings are written by persist() in the transaction that makes the detection
 * durable, with their audit entry and `alert.fired` outbox row.
 */
export class AlertEngine implements PipelineHook {
  private readonly rulesByTenant = new Map<string, CompiledRule[]>();
  private pending: Firing[] = [];

  /** activeIncidentAt: the incidents module's lookup, handed in (incidents group alerts, so they sit above alerts) */
  constructor(
    private readonly deps: {
      clock: Clock;
      audit: AuditService;
      events: EventSink;
      activeIncidentAt: (db: DbExecutor, sceneId: string) => Promise<string | null>;
      /**
       * cluster mode: each firing also claims its rule's cooldown at the scene in the database, so
       * a firing another node made within the cooldown drops this one (docs/decisions.md,
       * "Cluster: the owner takes the frames, shared cooldowns and anomalies")
       */
      sharedCooldowns?: boolean;
    },
  ) {}

  /** Loads every rule and restores cooldowns from the last alerts (server start). */
  async loadAll(db: DbExecutor): Promise<void> {
    const last = new Map<string, Map<string, number>>();
    for (const r of await alertRepository.lastFiredByRuleAndScene(db)) {
      if (!last.has(r.rule_id)) last.set(r.rule_id, new Map());
      last.get(r.rule_id)!.set(r.scene_id, Number(r.last));
    }
    const rows = await alertRuleRepository.listAll(db);
    // swapped in one turn: a detection evaluated meanwhile sees the old rules, never none
    this.rulesByTenant.clear();
    for (const row of rows) this.upsert(row, last.get(row.id));
  }

  /**
   * Re-reads a rule whenever a writer (on any node) announces a change to it: installed or
   * replaced if it still exists, dropped if it was deleted. Returns the unsubscribe.
   */
  followChanges(invalidation: CacheInvalidation, db: DbExecutor): () => void {
    return invalidation.subscribe(CACHE_TOPICS.alertRule, async (key) => {
      if (key === EVERY_KEY) return this.loadAll(db);
      const [tenantId, ruleId] = key.split('/');
      const row = await alertRuleRepository.findForTenant(db, tenantId, ruleId);
      if (row) this.upsert(row);
      else this.remove(tenantId, ruleId);
    });
  }

  /** Installs or replaces a rule (after its row is committed); keeps the rule's cooldown state. */
  upsert(row: AlertRuleRow, lastFiredAt?: Map<string, number>): void {
    const list = this.rulesByTenant.get(row.tenant_id) ?? [];
    const i = list.findIndex((r) => r.id === row.id);
    const compiled = compileRule(row, lastFiredAt ?? (i >= 0 ? list[i].lastFiredAt : undefined));
    // copy-on-write: a concurrent evaluation keeps iterating the array it started with
    const next = i >= 0 ? list.map((r, j) => (j === i ? compiled : r)) : [...list, compiled];
    this.rulesByTenant.set(row.tenant_id, next);
  }

  remove(tenantId: string, ruleId: string): void {
    const list = this.rulesByTenant.get(tenantId);
    if (list)
      this.rulesByTenant.set(
        tenantId,
        list.filter((r) => r.id !== ruleId),
      );
  }

  /** Rule ids of a tenant whose locations all lie within `locations` (what a location-limited key may see). */
  ruleIdsWithin(tenantId: string, locations: readonly string[]): string[] {
    const allowed = new Set(locations);
    return (this.rulesByTenant.get(tenantId) ?? []).filter((r) => r.locations !== null && [...r.locations].every((l) => allowed.has(l))).map((r) => r.id);
  }

  onDetection(rec: DetectionRecord, scene: SceneState): void {
    const rules = this.rulesByTenant.get(rec.tenant_id);
    if (rules === undefined) return;
    for (let i = 0; i < rules.length; i++) {
      const hit = evaluateRule(rules[i], rec, scene);
      if (hit) this.pending.push({ rule: rules[i], rec, observed: hit.observed });
    }
  }

  /** One insert, one audit append and one event per alert; the incident of each scene is looked up once per commit. */
  async persist(trx: DbExecutor): Promise<void> {
    if (this.pending.length === 0) return;
    let firings = this.pending;
    this.pending = [];
    if (this.deps.sharedCooldowns) {
      const kept: Firing[] = [];
      // in one order on every node: two transactions locking the same rows never wait on each other in a cycle
      const order = (f: Firing) => `${f.rule.id}/${f.rec.scene_id}`;
      for (const f of [...firings].sort((x, y) => (order(x) < order(y) ? -1 : order(x) > order(y) ? 1 : 0))) {
        if (await alertRepository.claimCooldown(trx, f.rule.id, f.rec.scene_id, f.rec.at, f.rule.cooldownMs)) kept.push(f);
      }
      firings = kept;
      if (firings.length === 0) return;
    }
    const now = this.deps.clock.now();
    const incidentOf = new Map<string, string | null>();
    const rows: AlertRow[] = [];
    for (const f of firings) {
      if (!incidentOf.has(f.rec.scene_id)) incidentOf.set(f.rec.scene_id, await this.deps.activeIncidentAt(trx, f.rec.scene_id));
      rows.push({
        id: newId('alert', now),
        tenant_id: f.rec.tenant_id,
        rule_id: f.rule.id,
        rule_name: f.rule.name,
        status: 'open',
        stream_id: f.rec.stream_id,
        scene_id: f.rec.scene_id,
        location: f.rec.location,
        incident_id: incidentOf.get(f.rec.scene_id) ?? null,
        condition: JSON.stringify(f.rule.condition),
        observed: f.observed,
        detection: JSON.stringify(toDetectionView(f.rec)),
        detected_at: f.rec.at,
        fired_at: toIso(now),
        acknowledged_at: null,
        acknowledged_by_key_id: null,
        acknowledged_by_operator: null,
      });
    }
    await alertRepository.insertMany(trx, rows);
    await this.deps.audit.appendIn(
      trx,
      ALERT_RULES_ACTOR,
      rows.map((r, i) => ({
        tenantId: r.tenant_id,
        action: 'alert.fired',
        resourceType: 'alert',
        resourceId: r.id,
        data: { rule_id: r.rule_id, detection_id: firings[i].rec.id, observed: r.observed },
        scope: { location: r.location, streamId: firings[i].rec.stream_id },
      })),
    );
    for (const r of rows) await this.deps.events.enqueueIn(trx, { tenantId: r.tenant_id, kind: 'alert.fired', payload: { alert: toAlertView(r) } });
  }
}
