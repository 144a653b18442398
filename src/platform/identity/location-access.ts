import { VigilError } from '../lib/index.ts';
import type { Principal } from './principal.ts';

/** Keys restricted to locations (docs/design.md "Auth and keys") may not act elsewhere. */
export function assertLocationAllowed(principal: Principal, location: string): void {
  if (principal.locations && !principal.locations.includes(location)) {
    throw new VigilError('location_not_allowed', `This key is limited to ${principal.locations.join(', ')}; "${location}" is not one of them.`, {
      param: 'location',
    });
  }
}

/**
 * Organization-wide settings (automation switches, responders, protocol types) act on every
 * location: a key limited to some locations may read them but not change them, or it
 * could, say, point a responder's webhook at itself and receive every location's protocol runs.
 */
export function assertEveryLocation(principal: Principal, what: string): void {
  if (principal.locations) {
    throw new VigilError(
      'location_not_allowed',
      `This key is limited to ${principal.locations.join(', ')}; ${what} applies to every location and needs a key that is not limited to locations.`,
      {
        param: 'locations',
      },
    );
  }
}
