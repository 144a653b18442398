import { html, useState, useEffect, useRef, Page, ErrorBox, Badge, Empty, fmtTime, pct, Field, useSnapshot } from '../ui.js';
import { get, post, openFeed } from '../api.js';
import uPlot from '/console/vendor/uPlot.esm.js';

const MAX_LIVE_POINTS = 2000;
const NO_HISTORY = { t: [], v: [] };

/**
 * The count axis as wide as its longest label (uPlot's axis-autosize recipe), so "100" is not
 * clipped to "00": the tick, the gap and the label measured in the axis's own font.
 */
function axisWidth(u, values, axisIdx, cycleNum) {
  const axis = u.axes[axisIdx];
  if (cycleNum > 1) return axis._size;
  let size = axis.ticks.size + axis.gap;
  const longest = (values ?? []).reduce((acc, v) => (String(v).length > acc.length ? String(v) : acc), '');
  if (longest) {
    u.ctx.font = axis.font[0];
    size += u.ctx.measureText(longest).width / devicePixelRatio;
  }
  return Math.ceil(size) + 2;
}

/**
 * People over time for one scene: its part of GET /v1/scenes/history (last hour or day, read once
 * for every scene by the wall), extended with the live feed's readings since it was loaded.
 */
function PeopleChart({ history, range, live, label }) {
  const box = useRef(null);
  const plot = useRef(null);
  const hist = history ?? NO_HISTORY;
  useEffect(() => {
    const width = Math.max(200, box.current.clientWidth);
    plot.current = new uPlot(
      {
        width,
        height: 110,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max + 1)] } },
        axes: [
          { size: 28, stroke: '#c8d3e0', grid: { stroke: '#2a3646' } },
          { size: axisWidth, stroke: '#c8d3e0', grid: { stroke: '#2a3646' } },
        ],
        series: [{}, { label: 'people', stroke: '#5eb8ff', width: 2, fill: 'rgba(94,184,255,0.15)' }],
      },
      [[], []],
      box.current,
    );
    box.current.plot = plot.current; // for tests: the drawn axis is measurable
    return () => plot.current.destroy();
  }, []);
  const lastHist = hist.t.length ? hist.t[hist.t.length - 1] : 0;
  const after = live.t.findIndex((t) => t > lastHist + 60);
  const t = after < 0 ? hist.t : hist.t.concat(live.t.slice(after));
  const v = after < 0 ? hist.v : hist.v.concat(live.v.slice(after));
  useEffect(() => {
    plot.current?.setData([t, v]);
  }, [t.length, v[v.length - 1], hist]);
  return html`<figure class="chart">
    <div ref=${box} role="img" aria-label=${`People over the last ${range === '1h' ? 'hour' : 'day'} at ${label}`}></div>
    <figcaption>People, last ${range === '1h' ? 'hour' : 'day'}</figcaption>
  </figure>`;
}

const pc = (n) => `${Math.round(n * 10000) / 100}%`;
const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The latest frame of a scene with its objects boxed: the snapshot, and over it an SVG whose
 * rectangles are the detections' boxes ([x, y, w, h] in 0..1 of the frame, so percentages of
 * the picture whatever its size).
 */
function FrameWithBoxes({ frame, location, onMissing }) {
  const { src, failed } = useSnapshot(`/v1/detections/${frame.detection_id}/snapshot`, frame.objects.length ? 5 : 0);
  useEffect(() => {
    if (failed) onMissing();
  }, [failed]);
  if (!src) return failed ? '' : html`<p class="muted">Loading the latest frame…</p>`;
  const kinds = [...new Set(frame.objects.map((o) => (o.subtype && o.type === 'animal' ? o.subtype : o.type)))];
  const what = frame.objects.length ? `, ${plural(frame.objects.length, 'object')} boxed (${kinds.join(', ')})` : '';
  return html`<figure class="frame" data-detection=${frame.detection_id}>
    <div class="frame-view">
      <img src=${src} alt=${`Camera frame at ${location.replace(/_/g, ' ')}${what}`} />
      <svg class="boxes" aria-hidden="true">
        ${frame.objects.map(
          (o) =>
            html`<g class=${`box box-${o.type}`} data-box=${o.box.join(',')}>
              <rect x=${pc(o.box[0])} y=${pc(o.box[1])} width=${pc(o.box[2])} height=${pc(o.box[3])} />
              <text x=${pc(o.box[0])} y=${pc(o.box[1])} dx="3" dy="13">${o.type === 'animal' && o.subtype ? o.subtype : o.type}</text>
            </g>`,
        )}
      </svg>
    </div>
    ${frame.timestamp ? html`<figcaption class="muted small">${fmtTime(frame.timestamp)}</figcaption>` : ''}
  </figure>`;
}

function SceneCard({ scene, streams, series, latest, frame, range, history }) {
  const [imgFailed, setImgFailed] = useState(false);
  // a frame with boxes (real video); else the latest detection's snapshot when it may have one:
  // only real video keeps snapshots, and its detections carry a box (a sandbox's never have one,
  // so asking for theirs would only be refused with 404)
  const shot = frame ?? (latest && latest.box && ['person', 'vehicle', 'animal'].includes(latest.type) ? { detection_id: latest.id, objects: [] } : null);
  useEffect(() => setImgFailed(false), [shot?.detection_id]);
  // no live source for longer than the silence threshold: the counts are the last reading, greyed out (docs/decisions.md, "Freshness")
  const stale = scene.stale === true;
  return html`<article class=${`card scene${stale ? ' stale' : ''}`} data-scene=${scene.id} aria-labelledby=${`t-${scene.id}`}>
    <header>
      <h2 id=${`t-${scene.id}`}>${scene.location.replace(/_/g, ' ')}</h2>
      ${stale ? html`<${Badge} kind="warn">Offline</${Badge}>` : scene.anomaly_flag ? html`<${Badge} kind="danger">Anomaly</${Badge}>` : html`<${Badge} kind="ok">Normal</${Badge}>`}
    </header>
    ${stale ? html`<p class="offline-since" role="status">${scene.as_of ? `Offline since ${fmtTime(scene.as_of)}: the counts below are the last reading` : 'No reading yet: its cameras have not connected'}</p>` : ''}
    <dl class="counts">
      <div>
        <dt>People</dt>
        <dd class="people">${scene.people_count}</dd>
      </div>
      <div>
        <dt>Vehicles</dt>
        <dd class="vehicles">${scene.vehicle_count}</dd>
      </div>
      <div>
        <dt>Density</dt>
        <dd class="density">${pct(scene.crowd_density)}</dd>
      </div>
    </dl>
    <div class="snapshot">
      ${
        shot && !imgFailed
          ? html`<${FrameWithBoxes} key=${shot.detection_id} frame=${shot} location=${scene.location} onMissing=${() => setImgFailed(true)} />`
          : html`<p class="muted">
              ${latest ? `Latest: ${latest.type}${latest.subtype ? ` (${latest.subtype})` : ''}${latest.value != null ? ` = ${latest.value}` : ''}, ${Math.round(latest.confidence * 100)}% · ${fmtTime(latest.timestamp)}` : `Last detection ${fmtTime(scene.last_detection_at)}`}
            </p>`
      }
    </div>
    <${PeopleChart} history=${history} range=${range} live=${series} label=${scene.location} />
    <p class="muted small">${streams.map((s) => s.name).join(', ') || 'no streams'}</p>
    ${streams.filter((s) => ['rtsp', 'http', 'mobile', 'webrtc'].includes(s.source_type)).map((s) => html`<a class="last-minute small" href=${`#/streams/${encodeURIComponent(s.id)}?play=last`}>Last minute of ${s.name}</a> `)}
  </article>`;
}

/** The question first offered for a scene: about that scene's own place, so it is never sent to another one. */
function defaultQuestion(scene) {
  return scene ? `How many people are in the ${scene.location.replace(/_/g, ' ')} right now?` : '';
}

/** The questions the API offers after one it could not read: choosing one puts it in the form. */
function examples(list, choose) {
  return html`<div class="examples" id="ask-examples">
    <p class="muted small">Questions it understands here:</p>
    <ul>
      ${list.map(
        (q) =>
          html`<li>
            <button type="button" class="link" onClick=${() => choose(q)}>${q}</button>
          </li>`,
      )}
    </ul>
  </div>`;
}

function detectionsTable(detections) {
  return html`<table>
    <caption>
      Detections behind the answer
    </caption>
    <thead>
      <tr>
        <th scope="col">Time</th>
        <th scope="col">Type</th>
        <th scope="col">Value</th>
        <th scope="col">Confidence</th>
      </tr>
    </thead>
    <tbody>
      ${detections.slice(0, 20).map(
        (d) =>
          html`<tr>
            <td>${fmtTime(d.timestamp)}</td>
            <td>${d.type}${d.subtype ? ` (${d.subtype})` : ''}</td>
            <td>${d.value ?? d.count ?? ''}</td>
            <td>${Math.round(d.confidence * 100)}%</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function answerView(answer) {
  return html`<div class="answer" id="ask-answer" role="status">
    <p class="answer-text">${answer.answer}</p>
    <p class="muted small">
      ${answer.interpretation.summary} · density ${pct(answer.crowd_density)} · ${answer.anomaly_flag ? 'anomaly present' : 'no anomaly'} · answered
      ${fmtTime(answer.answered_at)}
    </p>
    ${answer.detections.length ? detectionsTable(answer.detections) : ''}
  </div>`;
}

function AskForm({ scenes, streams }) {
  const [sceneId, setSceneIdState] = useState(scenes[0]?.id ?? '');
  const [question, setQuestion] = useState(defaultQuestion(scenes[0]));
  // choosing another scene changes the offered question too, until the operator writes their own
  const [edited, setEdited] = useState(false);
  const setSceneId = (id) => {
    setSceneIdState(id);
    if (!edited) setQuestion(defaultQuestion(scenes.find((s) => s.id === id)));
  };
  const [win, setWin] = useState('15m');
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const stream = streams.find((s) => s.scene_id === sceneId);
  const ask = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      setAnswer(await post(`/v1/scenes/${sceneId}/query`, { stream_id: stream?.id ?? '', query: question, window: win }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const chooseExample = (q) => {
    setQuestion(q);
    setEdited(true);
    setError(null);
  };
  return html`<section class="card ask" aria-labelledby="ask-title">
    <h2 id="ask-title">Ask a scene</h2>
    <form onSubmit=${ask} class="row-form">
      <${Field} label="Scene"><select id="ask-scene" value=${sceneId} onChange=${(e) => setSceneId(e.target.value)}>
        ${scenes.map((s) => html`<option value=${s.id}>${s.location}</option>`)}
      </select></${Field}>
      <${Field} label="Question"><input id="ask-question" class="grow" value=${question} onInput=${(e) => {
        setQuestion(e.target.value);
        setEdited(true);
      }} required maxlength="1000" /></${Field}>
      <${Field} label="Window"><input id="ask-window" class="short" value=${win} onInput=${(e) => setWin(e.target.value)} required /></${Field}>
      <button type="submit" class="primary" disabled=${busy || !stream}>${busy ? 'Asking…' : 'Ask'}</button>
    </form>
    <${ErrorBox} error=${error} />
    ${error?.problem?.examples?.length ? examples(error.problem.examples, chooseExample) : ''}
    ${answer ? answerView(answer) : ''}
  </section>`;
}

/** Every scene's chart for the range, by scene id. */
function useSceneHistories(range) {
  // every scene's chart in one request per range (docs/decisions.md, "The wall in one request per view")
  const [histories, setHistories] = useState({});
  useEffect(() => {
    let on = true;
    get(`/v1/scenes/history?limit=100&range=${range}`).then(
      (page) => {
        if (!on) return;
        const by = {};
        for (const h of page.data) by[h.scene_id] = { t: h.points.map((p) => Date.parse(p.at) / 1000), v: h.points.map((p) => p.people) };
        setHistories(by);
      },
      () => {},
    );
    return () => {
      on = false;
    };
  }, [range]);
  return histories;
}

/** A scene's people count at this moment, added to its live series (the newest MAX_LIVE_POINTS kept). */
function addPoint(series, id, people) {
  const s = (series[id] ??= { t: [], v: [] });
  s.t.push(Date.now() / 1000);
  s.v.push(people);
  if (s.t.length > MAX_LIVE_POINTS) {
    s.t.shift();
    s.v.shift();
  }
}

/**
 * The scenes and streams, kept current by the live feed: each scene's latest detection and frame,
 * its live people series, and whether the feed is up (`live`) or has ever been (`everLive`).
 */
function useWallFeed(session) {
  const [scenes, setScenes] = useState(null);
  const [streams, setStreams] = useState([]);
  const [error, setError] = useState(null);
  const [latest, setLatest] = useState({});
  const [frames, setFrames] = useState({});
  const [live, setLive] = useState(false);
  const [everLive, setEverLive] = useState(false);
  const series = useRef({});
  const [, tick] = useState(0);
  const point = (id, people) => addPoint(series.current, id, people);

  // freshness changes without a detection (a camera goes offline, the silence threshold passes): re-read the scenes
  const reload = async () => {
    try {
      const sc = await get('/v1/scenes?limit=100');
      setScenes((prev) => prev && sc.data.map((s) => ({ ...(prev.find((x) => x.id === s.id) ?? {}), ...s })));
    } catch {
      /* the next reload tries again */
    }
  };
  useEffect(() => {
    const every = setInterval(reload, 10_000);
    return () => clearInterval(every);
  }, []);

  useEffect(() => {
    let closeFeed = () => {};
    (async () => {
      try {
        const [sc, st] = await Promise.all([
          get('/v1/scenes?limit=100'),
          session.capabilities.includes('streams:read') ? get('/v1/streams?limit=100') : { data: [] },
        ]);
        for (const s of sc.data) point(s.id, s.people_count);
        setScenes(sc.data);
        setStreams(st.data);
        closeFeed = openFeed(
          {
            ready: () => {
              setLive(true);
              setEverLive(true);
              reload();
            },
            'stream.status_changed': () => reload(),
            'scene.updated': (e) => {
              const s = e.data.scene;
              point(s.id, s.people_count);
              setScenes((prev) => prev && (prev.some((x) => x.id === s.id) ? prev.map((x) => (x.id === s.id ? { ...x, ...s } : x)) : prev));
              setLatest((prev) => ({ ...prev, [s.id]: e.data.detection }));
              if (e.data.frame) setFrames((prev) => ({ ...prev, [s.id]: e.data.frame }));
              tick((n) => n + 1);
            },
          },
          (up) => setLive(up),
        );
      } catch (err) {
        setError(err);
      }
    })();
    return () => closeFeed();
  }, []);
  return { scenes, streams, error, latest, frames, live, everLive, series: series.current };
}

/** The wall's header: the chart range and the live feed's state. */
function wallActions(range, setRange, live, everLive) {
  return html`<span class="buttons">
    <span role="group" aria-label="Chart range" class="buttons">
      ${['1h', '24h'].map((r) => html`<button type="button" aria-pressed=${range === r} class=${range === r ? 'primary' : ''} onClick=${() => setRange(r)}>${r === '1h' ? 'Last hour' : 'Last day'}</button>`)}
    </span>
    <span class=${`live-dot ${live ? 'on' : ''}`} id="live-state" role="status">${live ? 'Live' : everLive ? 'Reconnecting…' : 'Connecting…'}</span></span
  >`;
}

export function Wall({ session }) {
  const [range, setRange] = useState('1h');
  const histories = useSceneHistories(range);
  const { scenes, streams, error, latest, frames, live, everLive, series } = useWallFeed(session);
  const canQuery = session.capabilities.includes('scenes:query');

  return html`<${Page} title="Live wall" actions=${wallActions(range, setRange, live, everLive)}>
    <${ErrorBox} error=${error} />
    ${scenes && canQuery && scenes.length ? html`<${AskForm} scenes=${scenes} streams=${streams} />` : ''}
    ${scenes && !scenes.length ? html`<${Empty}>No scenes yet: add a stream.</${Empty}>` : ''}
    <div class="grid">
      ${(scenes ?? []).map((s) => html`<${SceneCard} key=${s.id} scene=${s} streams=${streams.filter((x) => x.scene_id === s.id)} series=${series[s.id] ?? { t: [], v: [] }} latest=${latest[s.id]} frame=${frames[s.id]} range=${range} history=${histories[s.id]} />`)}
    </div>
  </${Page}>`;
}
