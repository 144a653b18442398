import { createHash } from 'node:crypto';

/**
 * Offline re-verification of an NDJSON export with the client's own code, as the export's
 * documentation describes it (not the service's audit-chain module): the checkpoint line first,
 * then format-2 entries whose hash covers data_hash (and data_hash the salted content, unless redacted).
 */
export function verifyExportOffline(ndjson: string): { valid: boolean; checked: number; firstBroken?: string; checkpointMatches?: boolean } {
  const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
  let head = '0'.repeat(64);
  let lastId: string | null = null;
  let checked = 0;
  let checkpoint: { head_id: string; head_hash: string; entry_count: number } | null = null;
  for (const line of ndjson.split('\n').filter(Boolean)) {
    const e = JSON.parse(line);
    if (e.object === 'audit_checkpoint') {
      checkpoint = e;
      continue;
    }
    checked++;
    let ok: boolean;
    if (e.format === 1) {
      ok =
        e.redacted ||
        e.hash ===
          sha([e.prev_hash, e.id, e.tenant_id, e.at, e.actor_key_id, e.actor_operator, e.action, e.resource_type, e.resource_id, e.request_id, e.data]);
    } else {
      ok =
        (e.redacted || e.data_hash === sha([e.salt, e.resource_id, e.location, e.stream_id, e.data])) &&
        e.hash === sha(['v2', e.prev_hash, e.id, e.tenant_id, e.at, e.actor_key_id, e.actor_operator, e.action, e.resource_type, e.request_id, e.data_hash]);
    }
    if (!ok) return { valid: false, checked, firstBroken: e.id };
    if (e.prev_hash !== head) return { valid: false, checked, firstBroken: lastId ?? e.id };
    head = e.hash;
    lastId = e.id;
  }
  if (!checkpoint) return { valid: true, checked };
  const checkpointMatches = checkpoint.head_id === lastId && checkpoint.head_hash === head && checkpoint.entry_count === checked;
  return { valid: checkpointMatches, checked, checkpointMatches };
}
