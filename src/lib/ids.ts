import { monotonicFactory } from 'ulid';

/** Prefixed, time-sortable ids (DESIGN.md "IDs"): `<prefix>_<ULID>`. */
export const ID_PREFIXES = [
  'conv', 'msg', 'wat', 'evt', 'stream', 'scene', 'det', 'incident', 'alert', 'rule', 'rsp', 'prot', 'ptype',
  'whk', 'dlv', 'aud', 'org', 'hh', 'key', 'room', 'bnd', 'note', 'req',
  'snap', // detection snapshots (issue 6)
  'ackp', // signed audit checkpoints (issue 9)
  'whip', // WHIP publish sessions (issue 15)
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const nextUlid = monotonicFactory();

export function newId(prefix: IdPrefix, at?: number): string {
  return `${prefix}_${nextUlid(at).toLowerCase()}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && id.length === prefix.length + 27;
}
