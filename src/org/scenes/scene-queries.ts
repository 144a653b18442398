import { sceneRepository } from './scene.repository.ts';

/*
 * The scenes table belongs to this module: what other modules need of it, through these
 * functions rather than its repository (docs/architecture.md). A write takes the caller's transaction.
 */

export function listScenesOfTenant(...args: Parameters<typeof sceneRepository.listForTenant>): ReturnType<typeof sceneRepository.listForTenant> {
  return sceneRepository.listForTenant(...args);
}

/** Updates a scene's columns in the caller's transaction. */
export function updateScene(...args: Parameters<typeof sceneRepository.update>): ReturnType<typeof sceneRepository.update> {
  return sceneRepository.update(...args);
}

/** Merges this node's held anomalies with the scene's shared ones (cluster mode), in the caller's transaction. */
export function shareSceneAnomalies(...args: Parameters<typeof sceneRepository.shareAnomalies>): ReturnType<typeof sceneRepository.shareAnomalies> {
  return sceneRepository.shareAnomalies(...args);
}
