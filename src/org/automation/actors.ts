import type { Actor } from '../../platform/audit/audit.service.ts';

/** The actor of steps the service takes on its own (automatic incidents, escalations), as the audit trail names it. */
export const AUTOMATION_ACTOR: Actor = { keyId: null, operator: 'automation' };
