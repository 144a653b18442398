import { personRepository } from './person.repository.ts';

/*
 * The people tables belong to this module: what other modules need of them, through these
 * functions rather than its repository (docs/architecture.md).
 */

/** The tenant's person, if any. */
export function findPerson(...args: Parameters<typeof personRepository.findForTenant>): ReturnType<typeof personRepository.findForTenant> {
  return personRepository.findForTenant(...args);
}

export function personNamesOfTenant(...args: Parameters<typeof personRepository.namesForTenant>): ReturnType<typeof personRepository.namesForTenant> {
  return personRepository.namesForTenant(...args);
}
