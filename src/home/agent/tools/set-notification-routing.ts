import { Type } from '@sinclair/typebox';
import { AgentToolError, defineTool } from '../tool-kit.ts';
import { planNotificationRouting } from '../notification-phrasing.ts';
import { describeRouting } from '../routing-words.ts';

/**
 * "Notify me only between 11pm and 7am", "don't send me the garage ones", "stop the
 * notifications": the change applied to the routing in force, through the same service (and
 * checks, and audit) as PUT /v1/notification-preferences; the reply says the whole routing now.
 */
export const setNotificationRouting = defineTool({
  name: 'set_notification_routing',
  schema: Type.Object(
    {
      scope: Type.Optional(
        Type.Union([Type.Literal('me'), Type.Literal('household')], {
          description: "me (default): the speaker's own; household: everyone's default (owners only)",
        }),
      ),
      quiet_hours: Type.Optional(
        Type.Union(
          [
            Type.Object(
              { from: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }), to: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }) },
              { additionalProperties: false },
            ),
            Type.Null(),
          ],
          { description: 'local HH:MM: nothing is sent from `from` until `to`; null: no quiet hours. "Only between 11pm and 7am" is from 07:00 to 23:00' },
        ),
      ),
      paused: Type.Optional(Type.Boolean({ description: 'true: "stop the notifications"; false: "send them again"' })),
      exclude_add: Type.Optional(
        Type.Object(
          {
            rooms: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
            sensors: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
          },
          { additionalProperties: false, description: 'rooms (names) and sensors (ids) no longer notified' },
        ),
      ),
      exclude_remove: Type.Optional(
        Type.Object(
          {
            rooms: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
            sensors: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
          },
          { additionalProperties: false, description: 'rooms and sensors notified again' },
        ),
      ),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  description: 'Set when and for what the household is notified on its phones and addresses: quiet hours, rooms or sensors left out, paused or resumed.',
  actionType: 'notification_preferences.set',
  says: () => "I've changed your notifications.",
  read: planNotificationRouting,
  llmRule:
    '"Notify me only between 11pm and 7am" (quiet_hours from 07:00 to 23:00), "don\'t send me the garage ones" (exclude_add rooms), "stop the notifications" (paused true), "send them again" (paused false): set_notification_routing. Unsure (which hours, which place) or a question: no tool, ask.',
  async run({ ports, scope: { principal, actor } }, a) {
    const notifications = ports.notifications;
    if (!notifications) throw new AgentToolError('unavailable', 'notifications are not set up on this server');
    const scope = a.scope ?? 'me';
    const before = await notifications.getPreferences(principal, scope);
    const add = a.exclude_add ?? {};
    const remove = a.exclude_remove ?? {};
    const merge = (now: string[], plus: string[] = [], minus: string[] = []) => {
      const out = [...now];
      for (const x of plus) if (!out.some((y) => y.toLowerCase() === x.toLowerCase())) out.push(x);
      return out.filter((x) => !minus.some((y) => y.toLowerCase() === x.toLowerCase()));
    };
    const after = await notifications.setRouting(principal, actor, scope, {
      quietHours: a.quiet_hours === undefined ? before.quiet_hours : a.quiet_hours,
      paused: a.paused === undefined ? before.paused : a.paused,
      exclude: {
        rooms: merge(before.exclude.rooms, add.rooms, remove.rooms),
        sensors: merge(before.exclude.sensors, add.sensors, remove.sensors),
        watches: before.exclude.watches,
      },
    });
    const home = await ports.household.snapshot(principal.tenantId);
    const text = describeRouting(after, (id) => home.sensors.find((s) => s.id === id)?.name);
    return { action: { scope, paused: after.paused, quiet_hours: after.quiet_hours, exclude: after.exclude }, text };
  },
});
