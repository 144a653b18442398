/**
 * Acts a camera does not see: checking in, buying, paying, booking, ordering, signing up, being
 * served. A person who checked in is a person who came in, but not every person who came in checked
 * in (nor bought, nor paid), so a count of arrivals is not an answer to "how many guests checked
 * in?"; nor are clocking in, signing for or delivering a parcel, ringing the bell, complaining or
 * eating (docs/decisions.md, "Before round R: scene questions"); such questions are refused with what can be counted instead (docs/decisions.md, "Round Q:
 * scene questions"). Said of a time, "came in", "arrived" and "visitors" stay answered.
 */
const UNSEEN_ACT =
  /\b(?:(?:checked|checking|checks)\s+(?:in|out)|check\s+ins|checkins|(?:signed|signing|signs)\s+(?:in|up)|sign\s+ups|signups|(?:logged|logging)\s+in|bought|buying|buys|purchased|purchasing|purchases|paid|paying|sold|booked|bookings|ordered|ordering|orders|served|registered|registering|registrations|transactions|tickets\s+(?:issued|scanned)|(?:clocked|clocking|clocks)\s+(?:in|on|off|out)|(?:signed|signing|signs)\s+for|(?:rang|rung|ringing|rings|ring)\s+(?:the\s+)?(?:door\s*)?bell|complained|complaining|complaints|delivered|ate|eaten|eating(?!\s+(?:area|areas|hall|room|space|zone|spot))|reserved|reservations|tipped|refunded|refunds|returned\s+(?:items|goods|purchases))\b/;

/** The act a question asks about that no camera sees ("checked in"), or undefined. */
export function findUnseenAct(normalised: string): string | undefined {
  return UNSEEN_ACT.exec(normalised)?.[0];
}

/** The refusal for such an act: what the camera counts instead. */
export function describeUnseenActRefusal(act: string, place: string): string {
  return `The camera in the ${place} sees people and vehicles come and go, not what they do there ("${act}"): no check-in, sale, payment, booking, order, delivery or ring at the door is recorded. Ask how many people came in, e.g. "how many people came in today?", or how many are here now.`;
}
