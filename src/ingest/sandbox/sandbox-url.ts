import { isScenarioName, SCENARIO_NAMES, type ScenarioName } from './scenario-types.ts';

export type SandboxUrlParse = { ok: true; scenario: ScenarioName; seed: number } | { ok: false; reason: string };

const INTEGER = /^-?\d+$/;

/**
 * Reads a sandbox stream's source_url: `sandbox://<anything>?scenario=<name>&seed=<int>`
 * (docs/design.md "Sandbox"). The scenario may instead be the host (`sandbox://lobby`); the seed
 * defaults to 1. A failure names the part that is wrong so it can be shown to the user as is.
 */
export function parseSandboxUrl(url: string): SandboxUrlParse {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `source_url is not a URL (expected sandbox://<scenario>?seed=<integer>)` };
  }
  if (parsed.protocol !== 'sandbox:') {
    return { ok: false, reason: `source_url scheme must be sandbox:// (got ${parsed.protocol}//)` };
  }

  const known = SCENARIO_NAMES.join(', ');
  const param = parsed.searchParams.get('scenario');
  let scenario: ScenarioName;
  if (param !== null) {
    if (!isScenarioName(param)) return { ok: false, reason: `unknown scenario "${param}"; expected one of: ${known}` };
    scenario = param;
  } else if (isScenarioName(parsed.hostname)) {
    scenario = parsed.hostname;
  } else {
    const host = parsed.hostname ? `"${parsed.hostname}" is not a scenario; ` : '';
    return { ok: false, reason: `${host}name one with ?scenario=<name> or sandbox://<name>, one of: ${known}` };
  }

  const seedParam = parsed.searchParams.get('seed');
  if (seedParam === null) return { ok: true, scenario, seed: 1 };
  const seed = Number(seedParam);
  if (!INTEGER.test(seedParam) || !Number.isSafeInteger(seed)) {
    return { ok: false, reason: `seed must be an integer (got "${seedParam}")` };
  }
  return { ok: true, scenario, seed };
}
