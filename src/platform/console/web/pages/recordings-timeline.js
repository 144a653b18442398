import { html, useState, useEffect, ErrorBox, fmtTime } from '../ui.js';
import { get } from '../api.js';

const MINUTE = 60_000;
const WINDOWS = { '10m': 10 * MINUTE, '1h': 60 * MINUTE };
const hhmmss = (ms) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Consecutive segments (gaps under 1.5 s are the muxer's keyframe rounding) merged into runs of recording. */
function runsOf(segments) {
  const runs = [];
  for (const s of segments) {
    const start = Date.parse(s.start);
    const end = Date.parse(s.end);
    const last = runs[runs.length - 1];
    if (last && start - last.end <= 1500) last.end = Math.max(last.end, end);
    else runs.push({ start, end });
  }
  return runs;
}

/** The minute to play: ending at `at` (clamped into the run), never before the run's start. */
function minuteIn(run, at) {
  const to = Math.min(run.end, Math.max(at + MINUTE / 2, run.start + MINUTE));
  return { from: Math.max(run.start, to - MINUTE), to };
}

/** The stream's recordings over the window (the last 10 minutes or hour), read again by `load()`. */
function useRecordings(stream, win) {
  const [listing, setListing] = useState(null);
  const [error, setError] = useState(null);
  const load = () => {
    const to = Date.now();
    const from = to - WINDOWS[win];
    return get(`/v1/streams/${stream.id}/recordings?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`).then((l) => {
      setListing({ ...l, fromMs: from, toMs: to });
      setError(null);
    }, setError);
  };
  useEffect(() => {
    load();
  }, [stream.id, win]);
  return { listing, error, load };
}

function controls(win, setWin, load, lastRun, choose) {
  return html`<div class="row-form">
    <label
      >Show
      <select id="rec-window" value=${win} onChange=${(e) => setWin(e.target.value)}>
        <option value="10m">last 10 minutes</option>
        <option value="1h">last hour</option>
      </select></label
    >
    <button type="button" onClick=${() => load()}>Refresh</button>
    ${lastRun ? html`<button type="button" id="rec-last-minute" onClick=${() => choose({ from: Math.max(lastRun.start, lastRun.end - MINUTE), to: lastRun.end })}>Play the last minute</button>` : ''}
  </div>`;
}

function summary(listing, runs) {
  return runs.length
    ? html`<p class="small muted" id="rec-summary">
        ${Math.round(listing.recorded_ms / 1000)} s recorded in ${runs.length} ${runs.length === 1 ? 'run' : 'runs'}, ${listing.gaps.length}
        ${listing.gaps.length === 1 ? 'gap' : 'gaps'}, ${fmtTime(listing.from)} – ${fmtTime(listing.to)}
      </p>`
    : html`<p class="muted" id="rec-none">Nothing was recorded in this window.</p>`;
}

/** The runs and gaps drawn to scale over the window; a run is a button that plays a minute of it. */
function timeline(listing, runs, choose) {
  const span = listing.toMs - listing.fromMs;
  const pos = (ms) => `${(100 * (ms - listing.fromMs)) / span}%`;
  const width = (a, b) => `${Math.max(0.4, (100 * (b - a)) / span)}%`;
  return html`<div class="rec-timeline" role="group" aria-label="Recordings timeline: choose a place on a recorded run to play its minute">
    ${listing.gaps.map((g) => html`<span class="rec-gap" style=${{ left: pos(Date.parse(g.from)), width: width(Date.parse(g.from), Date.parse(g.to)) }} title=${`No recording ${hhmmss(Date.parse(g.from))} – ${hhmmss(Date.parse(g.to))}`}></span>`)}
    ${runs.map(
      (r) =>
        html`<button
          type="button"
          class="rec-run"
          data-from=${new Date(r.start).toISOString()}
          data-to=${new Date(r.end).toISOString()}
          style=${{ left: pos(r.start), width: width(r.start, r.end) }}
          aria-label=${`Recorded ${hhmmss(r.start)} – ${hhmmss(r.end)}: play a minute`}
          onClick=${(e) => {
            const box = e.currentTarget.getBoundingClientRect();
            // a pointer picks the moment under it; the keyboard (no position) the run's last minute
            const at = e.detail > 0 && box.width > 0 ? r.start + ((e.clientX - box.left) / box.width) * (r.end - r.start) : r.end;
            choose(minuteIn(r, at));
          }}
        ></button>`,
    )}
  </div>`;
}

function player(stream, chosen, failed, setFailed) {
  const src = `/v1/streams/${stream.id}/clip?from=${new Date(chosen.from).toISOString()}&to=${new Date(chosen.to).toISOString()}`;
  return html`<figure class="rec-player">
    ${
      failed
        ? html`<p id="stream-clip-missing">This minute could not be played (no recording in it any more).</p>`
        : html`<video
            id="stream-clip"
            key=${src}
            controls
            autoplay
            muted
            preload="metadata"
            playsinline
            src=${src}
            onError=${() => setFailed(true)}
            aria-label="Recorded minute"
          ></video>`
    }
    <figcaption class="small" id="stream-clip-range">${hhmmss(chosen.from)} – ${hhmmss(chosen.to)}</figcaption>
  </figure>`;
}

/**
 * A stream's recordings as a timeline (GET /v1/streams/{id}/recordings over the last 10 minutes or
 * hour): recorded runs and the gaps between them, drawn to scale; choosing a place on a run plays
 * the minute around it from GET /v1/streams/{id}/clip. `play="last"` (the wall's link) plays the
 * last recorded minute once the listing is in. See docs/decisions.md, "Console: a stream's
 * recordings".
 */
export function RecordingsTimeline({ stream, play }) {
  const [win, setWin] = useState('1h');
  const { listing, error, load } = useRecordings(stream, win);
  const [chosen, setChosen] = useState(null);
  const [failed, setFailed] = useState(false);
  const [autoplayed, setAutoplayed] = useState(false);
  const runs = listing ? runsOf(listing.segments) : [];
  const lastRun = runs[runs.length - 1];
  useEffect(() => {
    if (play === 'last' && lastRun && !autoplayed) {
      setAutoplayed(true);
      choose({ from: Math.max(lastRun.start, lastRun.end - MINUTE), to: lastRun.end });
    }
  }, [play, listing]);
  function choose(range) {
    setFailed(false);
    setChosen(range);
  }
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!listing) return html`<p class="muted">Loading recordings…</p>`;
  return html`<div class="recordings" data-stream=${stream.id}>
    ${controls(win, setWin, load, lastRun, choose)}${summary(listing, runs)}${timeline(listing, runs, choose)}
    <div class="rec-axis small muted" aria-hidden="true"><span>${hhmmss(listing.fromMs)}</span><span>${hhmmss(listing.toMs)}</span></div>
    ${chosen ? player(stream, chosen, failed, setFailed) : ''}
  </div>`;
}
