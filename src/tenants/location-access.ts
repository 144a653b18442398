import { VigilError } from '../lib/errors.ts';
import type { Principal } from '../keys/key.service.ts';

/** Keys restricted to locations (spec "Authentication" 3: fine-grained resource access) may not act elsewhere. */
export function assertLocationAllowed(principal: Principal, location: string): void {
  if (principal.locations && !principal.locations.includes(location)) {
    throw new VigilError('location_not_allowed', `This key is limited to ${principal.locations.join(', ')}; "${location}" is not one of them.`, {
      param: 'location',
    });
  }
}
