import type { VigilContext } from '../context.ts';
import type { CreatedKey } from '../platform/keys/index.ts';
import { anyTenant } from '../platform/identity/index.ts';

export const DEMO_ORG = 'Demo Organization';
export const DEMO_HOUSEHOLD = 'Demo Household';

const DEMO_STREAMS = [
  { name: 'North lobby camera', location: 'north_lobby', source_url: 'sandbox://north_lobby?scenario=lobby&seed=7' },
  { name: 'Parking lot camera', location: 'parking_lot', source_url: 'sandbox://parking_lot?scenario=parking_lot&seed=3' },
  { name: 'Server room camera', location: 'server_room', source_url: 'sandbox://server_room?scenario=after_hours_intrusion&seed=11' },
  { name: 'Loading dock camera', location: 'loading_dock', source_url: 'sandbox://loading_dock?scenario=loitering&seed=5' },
  { name: 'Main plaza camera', location: 'main_plaza', source_url: 'sandbox://main_plaza?scenario=crowd_surge&seed=2' },
];

export interface DemoSeed {
  org: CreatedKey;
  household: CreatedKey;
  streams: { id: string; scene_id: string; location: string }[];
}

/**
 * First start of `npm start`: a demo organization with sandbox streams and a demo household, each
 * with a test key (sandbox). Returns null when the database already has tenants.
 */
export async function seedDemo(ctx: VigilContext): Promise<DemoSeed | null> {
  if (await anyTenant(ctx.database.db)) return null;
  const org = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: DEMO_ORG, mode: 'test', capabilities: 'all' });
  // an owner key: the demo household can lift its own boundaries and manage its keys
  const household = await ctx.keys.createKey({ tenantKind: 'household', tenantName: DEMO_HOUSEHOLD, mode: 'test', role: 'owner', name: 'demo owner' });
  const principal = await ctx.keys.authenticate(org.key);
  const actor = { keyId: org.id, operator: 'demo-seed' };
  const streams = [];
  for (const s of DEMO_STREAMS) {
    const v = await ctx.streams.create(principal, actor, { ...s, source_type: 'sandbox' });
    streams.push({ id: v.id, scene_id: v.scene_id, location: v.location });
  }
  // the demo household's simulated home: seven sandbox sensors in Lisbon
  await ctx.household.ensureHome(await ctx.keys.authenticate(household.key));
  return { org, household, streams };
}
