import type { DetectionRecord } from '../detections/index.ts';
import { alertConditionOf } from '../../platform/kinds/index.ts';
import type { SceneState } from '../scenes/index.ts';
import { compileSchedule, isWithinSchedule, type CompiledSchedule, type Schedule } from '../automation/index.ts';
import type { AlertRuleRow } from './alert-rule.repository.ts';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { RuleConditionSchema, type RuleConditionT, type UnreadableConditionT } from './alert-rule.schemas.ts';

const conditionCheck = TypeCompiler.Compile(RuleConditionSchema);

/**
 * A stored condition, checked against the request schema on the way out: a row
 * written by an older version (a 1e400 threshold stored as null) or by hand reads as
 * `unreadable`, so it can neither break a list nor fire on every detection.
 */
export function readStoredCondition(json: string): RuleConditionT | UnreadableConditionT {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { type: 'unreadable', detail: 'the stored condition is not valid JSON' };
  }
  if (conditionCheck.Check(value)) return value as RuleConditionT;
  const first = conditionCheck.Errors(value).First();
  return { type: 'unreadable', detail: `the stored condition does not validate${first ? ` (${first.path || '/'}: ${first.message})` : ''}` };
}

/**
 * An alert rule prepared for the detection hot path: sets instead of arrays, the schedule as
 * minutes and a weekday mask, and the per-location time it last fired (cooldown).
 */
export interface CompiledRule {
  id: string;
  tenantId: string;
  name: string;
  /** null when the stored condition is unreadable: the rule never fires */
  condition: RuleConditionT | null;
  minConfidence: number;
  locations: ReadonlySet<string> | null;
  streams: ReadonlySet<string> | null;
  schedule: CompiledSchedule | null;
  cooldownMs: number;
  paused: boolean;
  /** scene id → detection time of the last alert there */
  lastFiredAt: Map<string, number>;
}

function readable(c: RuleConditionT | UnreadableConditionT): RuleConditionT | null {
  return c.type === 'unreadable' ? null : c;
}

export function compileRule(row: AlertRuleRow, lastFiredAt = new Map<string, number>()): CompiledRule {
  const list = (json: string | null) => (json === null ? null : new Set(JSON.parse(json) as string[]));
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    condition: readable(readStoredCondition(row.condition)),
    minConfidence: row.min_confidence,
    locations: list(row.locations),
    streams: list(row.stream_ids),
    schedule: row.schedule === null ? null : compileSchedule(JSON.parse(row.schedule) as Schedule),
    cooldownMs: row.cooldown_s * 1000,
    paused: row.status === 'paused',
    lastFiredAt,
  };
}

/**
 * The value that met the condition, null when the condition matched without a number to report
 * (a person of a subtype, an animal), or undefined when it did not match. Counts are the location's (the
 * scene combines its streams, max or sum as it says) unless the rule is limited to streams, where the stream's own reading counts.
 */
export function observeCondition(rule: CompiledRule, rec: DetectionRecord, scene: SceneState): number | null | undefined {
  const c = rule.condition;
  if (c === null) return undefined;
  // each condition's evaluator lives with its kind in the table of detection kinds (platform/kinds)
  return alertConditionOf(c.type)?.observe(c, rec, scene, rule.streams !== null);
}

/**
 * Whether the rule fires on this detection; records the firing for the cooldown when it does.
 * Cheapest checks first: most detections fail on type.
 */
export function evaluateRule(rule: CompiledRule, rec: DetectionRecord, scene: SceneState): { observed: number | null } | null {
  if (rule.paused) return null;
  const observed = observeCondition(rule, rec, scene);
  if (observed === undefined) return null;
  if (rec.confidence < rule.minConfidence) return null;
  if (rule.locations && !rule.locations.has(rec.location)) return null;
  if (rule.streams && !rule.streams.has(rec.stream_id)) return null;
  if (rule.schedule && !isWithinSchedule(rule.schedule, rec.at, scene.timeZone)) return null;
  const last = rule.lastFiredAt.get(rec.scene_id);
  // detections can arrive out of order (sandbox backfill), so the cooldown holds both ways
  if (last !== undefined && Math.abs(rec.at - last) < rule.cooldownMs) return null;
  rule.lastFiredAt.set(rec.scene_id, last === undefined ? rec.at : Math.max(last, rec.at));
  return { observed };
}
