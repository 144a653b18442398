import { responderRepository } from './responder.repository.ts';

/*
 * The responders table belongs to this module: what other modules need of it, through these
 * functions rather than its repository (docs/architecture.md).
 */

/** The tenant's responder, if any. */
export function findResponder(...args: Parameters<typeof responderRepository.findForTenant>): ReturnType<typeof responderRepository.findForTenant> {
  return responderRepository.findForTenant(...args);
}

/** The tenant's responders at or below an escalation level. */
export function listRespondersAtOrBelow(...args: Parameters<typeof responderRepository.listAtOrBelow>): ReturnType<typeof responderRepository.listAtOrBelow> {
  return responderRepository.listAtOrBelow(...args);
}
