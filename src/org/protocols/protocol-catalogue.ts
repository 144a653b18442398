/**
 * Built-in response protocols (`unauthorized_access` and the others below; the enumeration is
 * open). Steps are the checklist responders receive; organizations add their own
 * types with POST /v1/protocols.
 */
export interface BuiltinProtocol {
  name: string;
  description: string;
  steps: string[];
}

export const BUILTIN_PROTOCOLS: readonly BuiltinProtocol[] = [
  {
    name: 'unauthorized_access',
    description: 'Someone is where they are not allowed to be.',
    steps: [
      'Verify the person on the live stream',
      'Dispatch on-site security to the location',
      'Challenge and identify the person',
      'Escort off the premises or escalate to police',
      'Record the outcome on the incident',
    ],
  },
  {
    name: 'intrusion',
    description: 'Forced or after-hours entry into a secured area.',
    steps: [
      'Confirm the intrusion on the live stream',
      'Lock down adjacent access points',
      'Notify police with location and description',
      'Keep eyes on the intruder until police arrive',
      'Preserve footage and record the outcome',
    ],
  },
  {
    name: 'fire',
    description: 'Smoke or fire at a location.',
    steps: [
      'Call the fire service',
      'Trigger the evacuation alarm for the location',
      'Direct people to assembly points',
      'Account for everyone at the assembly point',
      'Meet the fire service and hand over',
    ],
  },
  {
    name: 'medical',
    description: 'A person needs medical help.',
    steps: [
      'Send the nearest first aider',
      'Call emergency medical services when needed',
      'Clear a path for responders',
      'Meet and guide the ambulance crew',
      'Record what happened',
    ],
  },
  {
    name: 'crowd_control',
    description: 'Crowd density at a location is unsafe.',
    steps: [
      'Stop further entry to the location',
      'Open overflow areas and exits',
      'Send stewards to direct the flow',
      'Announce directions over the PA',
      'Reopen entry once density is back to normal',
    ],
  },
  {
    name: 'suspicious_vehicle',
    description: 'A vehicle is where it should not be or has stayed too long.',
    steps: [
      'Record the plate and description from the stream',
      'Send security to observe from a distance',
      'Check the plate against permitted vehicles',
      'Escalate to police if it cannot be accounted for',
      'Record the outcome',
    ],
  },
];

export function findBuiltinProtocol(name: string): BuiltinProtocol | undefined {
  return BUILTIN_PROTOCOLS.find((p) => p.name === name);
}
