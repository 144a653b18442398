import type { DbExecutor } from '../db/index.ts';

/**
 * What a push or an email says (docs/decisions.md, "Notifications through the outbox"). Rendered
 * when the event is written, for one recipient: it holds only what that recipient's key may read.
 */
export interface NotificationMessage {
  /** the outbox event kind (watch.observation, incident.created, protocol.triggered, …) */
  event: string;
  title: string;
  body: string;
  /** the page that opens when the notification is tapped (the event, the incident) */
  url: string;
  /** repeated notifications with one tag replace each other on the device (one watch, one incident) */
  tag: string;
  severity: 'info' | 'warning' | 'critical';
  /** how many events this notification stands for (a visit grouped into one) */
  count: number;
  occurred_at: string;
  location?: string | null;
  room?: string | null;
  incident_id?: string | null;
  watch_id?: string | null;
  /** the detection whose snapshot an email shows inline */
  detection_id?: string | null;
}

/** One delivery besides registered webhook endpoints: a receiver URL, a push subscription, an email address. */
export type ChannelTarget =
  | { channel: 'webhook'; url: string; secret: string | null }
  | { channel: 'push'; subscriptionId: string; message: NotificationMessage }
  | { channel: 'email'; address: string; subscriptionId?: string | null; message: NotificationMessage };

/** What a router sees of each event the outbox writes. */
export interface RoutedEvent {
  tenantId: string;
  kind: string;
  eventId: string;
  location: string | undefined;
  payload: Record<string, unknown>;
  /** epoch ms, when the event was written */
  at: number;
  /** how many occurrences it stands for (a visit's update: those since the last one); default 1 */
  weight?: number;
}

/**
 * Port (implemented by platform/notify): the devices and addresses an event also goes to, decided
 * inside the event's transaction (grouping, quiet hours, what each key may read).
 */
export interface NotificationRouter {
  routeIn(trx: DbExecutor, event: RoutedEvent): Promise<ChannelTarget[]>;
}

/** The outcome of each finished delivery, after it is recorded (protocol runs count responders reached). */
export interface DeliveryOutcome {
  deliveryId: string;
  eventId: string;
  channel: 'webhook' | 'push' | 'email';
  status: 'delivered' | 'retrying' | 'dropped';
}
