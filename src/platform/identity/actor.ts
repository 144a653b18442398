/** Who did something: the key, and the operator named by X-Operator when present. */
export interface Actor {
  keyId: string | null;
  operator?: string | null;
  requestId?: string | null;
}

/** The actor of steps the service takes on its own (automatic incidents, escalations), as the audit trail names it. */
export const AUTOMATION_ACTOR: Actor = { keyId: null, operator: 'automation' };

export const SYSTEM_ACTOR: Actor = { keyId: null, operator: 'system' };
