/**
 * Which camera addresses the ffmpeg decoder accepts. file:// reads the
 * server's own disk, so it is refused unless the operator opted in (VIGIL_ALLOW_FILE_SOURCES=1).
 */
export type SourceUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const NETWORK_SCHEMES = new Set(['rtsp:', 'rtsps:', 'http:', 'https:']);

export function validateSourceUrl(raw: string, opts: { allowFileSources: boolean }): SourceUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'source_url is not a valid URL' };
  }
  if (url.protocol === 'file:') {
    if (!opts.allowFileSources) return { ok: false, reason: 'file:// sources are disabled on this server' };
    if (url.host !== '' && url.host !== 'localhost') return { ok: false, reason: 'file:// URL must name a local path' };
    if (url.pathname === '/' || url.pathname === '') return { ok: false, reason: 'file:// URL has no path' };
    return { ok: true, url };
  }
  if (!NETWORK_SCHEMES.has(url.protocol)) {
    return { ok: false, reason: `scheme ${url.protocol.replace(/:$/, '')}:// is not supported (use rtsp://, rtsps://, http:// or https://)` };
  }
  if (!url.hostname) return { ok: false, reason: 'source_url has no host' };
  return { ok: true, url };
}

/** Removes `user:password@` from every URL inside a piece of text (ffmpeg echoes its input URL). */
export function redactCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@');
}
