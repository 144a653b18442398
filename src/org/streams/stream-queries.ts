import { streamRepository } from './stream.repository.ts';

/*
 * The streams table belongs to this module: what other modules need of it, through these
 * functions rather than its repository (docs/architecture.md). A write takes the caller's transaction.
 */

/** The tenant's stream, if any. */
export function findStream(...args: Parameters<typeof streamRepository.findForTenant>): ReturnType<typeof streamRepository.findForTenant> {
  return streamRepository.findForTenant(...args);
}

export function findStreamById(...args: Parameters<typeof streamRepository.findById>): ReturnType<typeof streamRepository.findById> {
  return streamRepository.findById(...args);
}

export function listStreamsOfTenant(...args: Parameters<typeof streamRepository.listForTenant>): ReturnType<typeof streamRepository.listForTenant> {
  return streamRepository.listForTenant(...args);
}

export function listStreamSceneIds(...args: Parameters<typeof streamRepository.listSceneIds>): ReturnType<typeof streamRepository.listSceneIds> {
  return streamRepository.listSceneIds(...args);
}

export function listStreamsOfScene(...args: Parameters<typeof streamRepository.listByScene>): ReturnType<typeof streamRepository.listByScene> {
  return streamRepository.listByScene(...args);
}

export function listRunnableStreams(...args: Parameters<typeof streamRepository.listRunnable>): ReturnType<typeof streamRepository.listRunnable> {
  return streamRepository.listRunnable(...args);
}

/** Updates a stream's columns in the caller's transaction. */
export function updateStream(...args: Parameters<typeof streamRepository.update>): ReturnType<typeof streamRepository.update> {
  return streamRepository.update(...args);
}
