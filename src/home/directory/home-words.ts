/** How replies and event summaries name the things of a home. */

/** "Front porch camera" → "the front porch camera", as a sentence names a sensor. */
export function describeSensorName(name: string): string {
  return `the ${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
