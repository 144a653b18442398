import { notificationRepository } from './notification.repository.ts';

/*
 * The notification tables belong to this module: what other modules need of them, through
 * these functions rather than its repository (docs/architecture.md).
 */

/** The devices subscribed for a responder. */
export function responderDevices(
  ...args: Parameters<typeof notificationRepository.responderDevices>
): ReturnType<typeof notificationRepository.responderDevices> {
  return notificationRepository.responderDevices(...args);
}
