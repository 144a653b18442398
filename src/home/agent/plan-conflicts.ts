/**
 * Conflicts inside one message: one part asks to watch or look at a place while another part blinds
 * it ("mute the garden cam and watch the garden tonight"), keeps it out ("leave the garden alone and
 * watch the garden"), or takes back the request itself ("watch the hallway tonight but don't watch the
 * hallway"). Acting on either part would ignore the other, so the message is asked about and nothing
 * changes. The check runs over every part of the message at once, whatever the order of its clauses.
 * See docs/decisions.md, "Round G: intent".
 */

/** What one part of a message does to what the agent may see. */
export interface PartEffect {
  /** `see`: watch, unmute, lift a boundary; `blind`: mute, set a boundary, a watch said not to happen. */
  polarity: 'see' | 'blind';
  sensorIds: string[];
  /** The part said back to the user: "mute the garden camera", "watch the garden". */
  said: string;
  /** The part's position in the message (its clause order). */
  index: number;
}

/** Why the blinding part stops the seeing part, said after "—". */
function because(blind: PartEffect): string {
  if (/^mute\b/.test(blind.said)) return "a muted sensor is one I can't watch";
  if (/^leave\b.*\balone$/.test(blind.said)) return "a place I leave alone is one I don't watch or look at";
  return 'the two take each other back';
}

/** The question to ask when two parts of one message undo each other, or undefined when none do. */
export function findConflict(parts: PartEffect[]): string | undefined {
  for (const blind of parts) {
    if (blind.polarity !== 'blind') continue;
    const ids = new Set(blind.sensorIds);
    const see = parts.find((p) => p.polarity === 'see' && p.index !== blind.index && p.sensorIds.some((id) => ids.has(id)));
    if (!see) continue;
    const [first, second] = see.index < blind.index ? [see, blind] : [blind, see];
    return (
      `You asked me to ${first.said} and to ${second.said} — ${because(blind)}, so I haven't changed anything. ` +
      `Which did you mean: ${see.said.replace(/^not /, '')}, or ${blind.said}?`
    );
  }
  return undefined;
}
