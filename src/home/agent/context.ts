/**
 * What the planner knows about the household when it reads a message.
 * The conversation service builds it from the household's rooms, sensors, boundaries and
 * active watches plus the earlier turns of the conversation, so follow-ups can resolve.
 */
export type SensorKind = 'camera' | 'contact' | 'motion';

export interface ContextSensor {
  id: string;
  name: string;
  kind: SensorKind;
  room: string;
  muted: boolean;
  /** How its feed is: 'live', 'offline', 'connecting', 'reconnecting'; absent in an older context (taken as live). */
  status?: string;
  /** When its last frame (or a contact's last report) came, ISO; null or absent when none is known. */
  last_frame_at?: string | null;
}

export interface ContextBoundary {
  room?: string;
  sensor_id?: string;
}

export interface ContextWatch {
  id: string;
  subject: string;
  sensor_ids: string[];
  starts_at: string;
  ends_at: string;
  recurrence: string;
  window: string;
}

/** A watch as it was when this conversation stood it down: what "put it back" restores. */
export type StoodDownWatch = Omit<ContextWatch, 'id'> & { conditions?: string[]; person_ids?: string[] };

export interface ConversationTurn {
  message: string;
  actions: { type: string; id?: string; subject?: string; watch?: StoodDownWatch }[];
}

/**
 * An action taken in an earlier turn as the planner reads it: its type, id and subject, and for a watch stood
 * down the watch as it was (the stand_down_watch tool logs it), so "put it back" can restore it
 * (docs/decisions.md, "Round J household: follow-ups, references and arming").
 */
export function rememberAction(a: { type: string; id?: string; subject?: string; [field: string]: unknown }): ConversationTurn['actions'][number] {
  const remembered = { type: a.type, id: a.id, subject: a.subject };
  if (a.type !== 'watch.stood_down' || !Array.isArray(a.sensor_ids) || typeof a.starts_at !== 'string' || typeof a.ends_at !== 'string') return remembered;
  const watch: StoodDownWatch = {
    subject: String(a.subject ?? ''),
    sensor_ids: a.sensor_ids.map(String),
    starts_at: a.starts_at,
    ends_at: a.ends_at,
    recurrence: String(a.recurrence ?? 'none'),
    window: String(a.window ?? ''),
  };
  if (Array.isArray(a.conditions) && a.conditions.length) watch.conditions = a.conditions.map(String);
  if (Array.isArray(a.person_ids) && a.person_ids.length) watch.person_ids = a.person_ids.map(String);
  return { ...remembered, watch };
}

/** A person the household enrolled: recognized by face on its cameras when face_recognition is on. */
export interface ContextPerson {
  id: string;
  name: string;
  /** Free text the household wrote about them ("the nanny", "grandmother"): role words resolve against it. */
  note?: string | null;
}

export interface HouseholdContext {
  /** Epoch milliseconds. */
  now: number;
  /** IANA zone of the home, e.g. "Europe/Lisbon". */
  timeZone: string;
  location: { lat: number; lon: number; city?: string } | null;
  rooms: { name: string }[];
  sensors: ContextSensor[];
  boundaries: ContextBoundary[];
  /** Active (not stood down) watches. */
  watches: ContextWatch[];
  conversation: { turns: ConversationTurn[] };
  /** Known people (POST /v1/people); absent or empty when none are enrolled. */
  people?: ContextPerson[];
  /** The household's face recognition opt-in (home settings); undefined when not known. */
  faceRecognition?: boolean;
  /**
   * The default MQTT broker sensors added by topic alone are on ("mqtt://192.168.1.10:1883", no
   * credentials): the household's own, else the install's; null or absent when there is none.
   */
  mqttBroker?: string | null;
}
