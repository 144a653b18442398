import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'round-q-household-contexts.json'));
const base = contexts.q_bilbao_flat;
const sensor = (id: string, name: string, kind: string, room: string) => ({ id, name, kind, room, muted: false });
const home: any = { ...base, rooms: [{ name: 'boathouse' }, { name: 'till' }], sensors: [sensor('s_boat_cam', 'boathouse camera', 'camera', 'boathouse')], watches: [] };
for (const m of ['watch the boathouse from 3 to 6', 'watch the boathouse from 2 to 4']) { const [t] = await converseIn(contexts)(home, [m]); console.log(new Date(home.now).toISOString(), t.reply); }
