import { h, render } from '/console/vendor/preact.mjs';
import { useState, useEffect, useRef, useCallback } from '/console/vendor/hooks.mjs';
import htm from '/console/vendor/htm.mjs';

export const html = htm.bind(h);
export { render, useState, useEffect, useRef, useCallback };

export function fmtTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function pct(x) {
  return `${Math.round((x ?? 0) * 100)}%`;
}

/** Loads data on mount (and when deps change); returns [data, error, reload]. */
export function useLoad(fn, deps = []) {
  const [state, setState] = useState({ data: null, error: null });
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    fn().then(
      (data) => live && setState({ data, error: null }),
      (error) => live && setState({ data: null, error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  return [state.data, state.error, () => setN((x) => x + 1)];
}

/**
 * The item open at `#/<page>/<id>` (docs/decisions.md, "Console routes"): its row in the loaded list
 * when it is there (marked and scrolled to), else fetched on its own, so a link to an item past the
 * first page still opens it. `missing` is the error when it cannot be read (gone, or not this key's).
 */
export function useOpenItem(item, rows, fetchOne) {
  const inList = item && rows ? (rows.find((r) => r.id === item) ?? null) : null;
  const [fetched, missing] = useLoad(() => (item && rows && !inList ? fetchOne(item) : Promise.resolve(null)), [item, Boolean(rows), Boolean(inList)]);
  useEffect(() => {
    if (item) document.querySelector('[data-open="true"]')?.scrollIntoView({ block: 'center' });
  }, [item, Boolean(inList), Boolean(fetched)]);
  return { open: inList ?? (fetched && fetched.id === item ? fetched : null), inList: Boolean(inList), missing: item ? missing : null };
}

export function ErrorBox({ error }) {
  if (!error) return null;
  const p = error.problem;
  return html`<div class="error" role="alert"><strong>${p?.title ?? 'Error'}</strong> ${error.message}${p?.code ? html` <code>${p.code}</code>` : ''}</div>`;
}

export function Page({ title, actions, children }) {
  return html`<section class="page" aria-labelledby="page-title">
    <header class="page-head">
      <h1 id="page-title">${title}</h1>
      ${actions ?? ''}
    </header>
    ${children}
  </section>`;
}

/**
 * A form's submit handler that creates something once: the submit button is disabled while the
 * request is in flight (a second click or Enter does nothing), and every attempt of one submission
 * carries the same Idempotency-Key, so a retry after an answer lost on the network replays the first
 * answer instead of creating a second (docs/decisions.md, "The console creates once"). The key is
 * new after a success or an answer from the server (a 4xx means the form must change anyway).
 * `run(idempotencyKey)` does the request; returns [onSubmit, busy, error].
 */
export function useSubmit(run) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const inFlight = useRef(false);
  const key = useRef(null);
  const onSubmit = async (e) => {
    e?.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    key.current ??= newIdempotencyKey();
    try {
      await run(key.current);
      key.current = null;
    } catch (err) {
      if (err?.status) key.current = null;
      setError(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  return [onSubmit, busy, error];
}

function newIdempotencyKey() {
  return globalThis.crypto?.randomUUID ? crypto.randomUUID() : `console-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * A button that runs an async action, shows it is busy and reports the error beside it. A click
 * while it runs does nothing; `run` gets an Idempotency-Key for a create it makes, the same on a
 * retry after a network failure (as useSubmit).
 */
export function ActionButton({ label, run, kind, disabled, busyLabel }) {
  const [click, busy, error] = useSubmit(run);
  return html`<span class="action">
    <button type="button" class=${kind ?? ''} disabled=${busy || disabled} onClick=${click}>${busy ? (busyLabel ?? label) : label}</button>
    ${error ? html`<span class="inline-error" role="alert">${error.message}</span>` : ''}
  </span>`;
}

/** Form field helper: a labelled input. */
export function Field({ label, children, hint }) {
  return html`<label class="field"><span>${label}</span>${children}${hint ? html`<small>${hint}</small>` : ''}</label>`;
}

export function Badge({ kind, children }) {
  return html`<span class=${`badge ${kind ?? ''}`}>${children}</span>`;
}

export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}

/**
 * A JPEG from the API (a detection's or a stream's snapshot) as a blob: URL the CSP's img-src
 * allows, or `failed` once it is not there. `retries`: a frame's snapshot is written just after
 * its detections, so a live update may arrive first; it is asked for again a few times.
 */
export function useSnapshot(path, retries = 0) {
  const [state, setState] = useState({ src: null, failed: false });
  useEffect(() => {
    if (!path) {
      setState({ src: null, failed: false });
      return undefined;
    }
    let live = true;
    let url = null;
    setState({ src: null, failed: false });
    (async () => {
      for (let attempt = 0; live; attempt++) {
        const res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'image/jpeg' } }).catch(() => null);
        if (res && res.ok) {
          const blob = await res.blob();
          // its size, so a drawing over it can take the frame's proportions
          const size = await createImageBitmap(blob).then(
            (b) => {
              const wh = { width: b.width, height: b.height };
              b.close();
              return wh;
            },
            () => null,
          );
          if (!live) return;
          url = URL.createObjectURL(blob);
          setState({ src: url, failed: false, ...(size ?? {}) });
          return;
        }
        if (attempt >= retries || (res && res.status !== 404)) break;
        await new Promise((r) => setTimeout(r, 400));
      }
      if (live) setState({ src: null, failed: true });
    })();
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return state;
}
