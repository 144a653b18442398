import type { DbExecutor } from '../db/index.ts';
import { OPEN_STATUSES } from './webhook.repository.ts';

/** Deliveries the worker still has to send, every tenant together (the vigil_webhook_queue_depth metric). */
export async function countOpenDeliveries(db: DbExecutor): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', 'in', [...OPEN_STATUSES])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
