/** An ICE server as both RTCPeerConnection (browser) and werift take it. */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

const URL_RE = /^(stun|stuns|turn|turns):[^\s,]+$/i;

/**
 * VIGIL_ICE_SERVERS: the STUN/TURN servers the publish page and the server's peer connections
 * use. Either JSON (an array of RTCIceServer objects, the only way to give TURN credentials) or a
 * comma-separated list of stun:/turn: URLs. Empty or unset: none, which is what a LAN needs
 * (host candidates reach each other directly); a publisher behind NAT needs STUN, one behind a
 * strict firewall TURN. Throws with the reason, which config loading reports.
 */
export function parseIceServers(raw: string | undefined): IceServer[] {
  const text = (raw ?? '').trim();
  if (text === '') return [];
  let list: unknown;
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      list = JSON.parse(text);
    } catch (err) {
      throw new Error(`VIGIL_ICE_SERVERS is not valid JSON: ${(err as Error).message}`);
    }
    if (!Array.isArray(list)) list = [list];
  } else {
    list = text
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean)
      .map((u) => ({ urls: u }));
  }
  return (list as unknown[]).map((entry, i) => {
    const where = `VIGIL_ICE_SERVERS[${i}]`;
    if (!entry || typeof entry !== 'object') throw new Error(`${where} must be an object with "urls"`);
    const e = entry as Record<string, unknown>;
    const urls = typeof e.urls === 'string' ? [e.urls] : e.urls;
    if (!Array.isArray(urls) || urls.length === 0 || !urls.every((u) => typeof u === 'string')) {
      throw new Error(`${where}.urls must be a stun:/turn: URL or a non-empty list of them`);
    }
    for (const u of urls as string[]) {
      if (!URL_RE.test(u)) throw new Error(`${where}.urls: ${JSON.stringify(u)} is not a stun:, stuns:, turn: or turns: URL`);
    }
    const out: IceServer = { urls: urls as string[] };
    for (const k of ['username', 'credential'] as const) {
      if (e[k] === undefined) continue;
      if (typeof e[k] !== 'string') throw new Error(`${where}.${k} must be a string`);
      out[k] = e[k] as string;
    }
    if ((urls as string[]).some((u) => /^turns?:/i.test(u)) && (!out.username || !out.credential)) {
      throw new Error(`${where}: a TURN server needs "username" and "credential" (give VIGIL_ICE_SERVERS as JSON)`);
    }
    return out;
  });
}
