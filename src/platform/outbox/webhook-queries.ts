import { webhookRepository } from './webhook.repository.ts';

/*
 * The webhook tables belong to this module: what other modules need of them, through these
 * functions rather than its repository (docs/architecture.md). A write takes the caller's transaction.
 */

/** Cancels the tenant's deliveries not yet sent of these events (in the caller's transaction). */
export function cancelOpenDeliveriesOfEvents(
  ...args: Parameters<typeof webhookRepository.cancelOpenDeliveriesOfEvents>
): ReturnType<typeof webhookRepository.cancelOpenDeliveriesOfEvents> {
  return webhookRepository.cancelOpenDeliveriesOfEvents(...args);
}
