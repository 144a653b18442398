import { incidentRepository } from './incident.repository.ts';

/*
 * The incidents tables belong to this module: what other modules need of them, through these
 * functions rather than its repository (docs/architecture.md).
 */

/** The tenant's incident, if any. */
export function findIncident(...args: Parameters<typeof incidentRepository.findForTenant>): ReturnType<typeof incidentRepository.findForTenant> {
  return incidentRepository.findForTenant(...args);
}

export function findIncidentById(...args: Parameters<typeof incidentRepository.findById>): ReturnType<typeof incidentRepository.findById> {
  return incidentRepository.findById(...args);
}

export function findActiveIncidentAtScene(
  ...args: Parameters<typeof incidentRepository.findActiveAtScene>
): ReturnType<typeof incidentRepository.findActiveAtScene> {
  return incidentRepository.findActiveAtScene(...args);
}
