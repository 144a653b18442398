// Vigil phone publish page: camera → WebRTC → the stream's WHIP endpoint (RFC 9725).
// Served by Vigil itself; no CDN, no inline script. The link carries the stream id and its
// publish token (never an API key).
const params = new URLSearchParams(location.search);
const streamId = params.get('stream');
const token = params.get('token');
const iceMeta = document.querySelector('meta[name="vigil-ice-servers"]');
const iceServers = JSON.parse((iceMeta && iceMeta.content) || '[]');
const statusEl = document.getElementById('status');
const preview = document.getElementById('preview');
const toggle = document.getElementById('toggle');
const busy = document.getElementById('busy');
const takeoverButton = document.getElementById('takeover');
// this browser's last session of the stream, so a page reopened after closing knows it was its own
const KEPT = `vigil-publish:${streamId}`;
const LOCK = `vigil-publish:${streamId}`;
let releaseLock = null;

let media = null;
let pc = null;
let sessionUrl = null;
let wanted = true;
let retryTimer = null;

function show(message, state) {
  statusEl.textContent = message;
  document.body.dataset.state = state;
}

function waitForCandidates(conn, ms) {
  if (conn.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (conn.iceGatheringState === 'complete') resolve();
    };
    conn.addEventListener('icegatheringstatechange', done);
    setTimeout(resolve, ms);
  });
}

async function endSession(leaving) {
  const url = sessionUrl;
  sessionUrl = null;
  if (releaseLock) releaseLock();
  releaseLock = null;
  // closing the page keeps the note: its DELETE may not arrive, and the page reopened takes over
  if (url && !leaving && localStorage.getItem(KEPT) === url.split('/').pop()) localStorage.removeItem(KEPT);
  if (pc) pc.close();
  pc = null;
  if (url) {
    // keepalive lets the DELETE go out while the page is closing
    await fetch(url, { method: 'DELETE', headers: { authorization: `Bearer ${token}` }, keepalive: leaving }).catch(() => undefined);
  }
}

function retrySoon(why) {
  show(`${why} Retrying in 3 s…`, 'error');
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => {
    if (wanted) void publish();
  }, 3000);
}

/** Holds a Web Lock while this tab publishes: another tab of this browser sees it held. */
function holdLock() {
  if (!navigator.locks || releaseLock) return;
  navigator.locks.request(
    LOCK,
    () =>
      new Promise((resolve) => {
        releaseLock = resolve;
      }),
  );
}

/** Whether a tab of this browser is publishing this stream now (its lock is held). */
async function anotherTabPublishes() {
  if (!navigator.locks) return false;
  const state = await navigator.locks.query();
  return state.held.some((l) => l.name === LOCK);
}

/**
 * 409: the stream has a live publisher. When it is this browser's own session and no tab of it
 * publishes any more (the page was closed and reopened before the server noticed), it is taken
 * over at once; otherwise the page says another tab or device publishes, with a button to take
 * over, and does not retry on its own (two pages would take the stream from each other forever).
 */
async function onBusy(problem) {
  const theirs = problem && problem.session_id;
  if (theirs && localStorage.getItem(KEPT) === theirs && !(await anotherTabPublishes())) {
    show("Taking over from this phone's earlier page…", 'starting');
    return publish(true);
  }
  const since = problem && problem.since ? ` since ${new Date(problem.since).toLocaleTimeString()}` : '';
  show(`Another tab or device is publishing this stream${since}. Take over to publish from here instead (it will be disconnected).`, 'busy');
  busy.hidden = false;
}

async function publish(takeover = false) {
  busy.hidden = true;
  if (!streamId || !token) return show('This link is missing its stream or token: copy the whole publish_url.', 'error');
  if (!window.isSecureContext || !navigator.mediaDevices) {
    return show('The browser only gives the camera to secure pages: open this link over https:// (or on localhost).', 'error');
  }
  try {
    if (!media) {
      show('Asking for the camera…', 'starting');
      media = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 15, max: 30 } },
        audio: false,
      });
      preview.srcObject = media;
    }
    show('Connecting to Vigil…', 'starting');
    const conn = new RTCPeerConnection({ iceServers });
    pc = conn;
    for (const track of media.getVideoTracks()) conn.addTransceiver(track, { direction: 'sendonly', streams: [media] });
    conn.addEventListener('connectionstatechange', () => {
      if (pc !== conn) return;
      if (conn.connectionState === 'connected') show('Live: Vigil is receiving this camera.', 'live');
      else if (conn.connectionState === 'disconnected') show('Connection interrupted…', 'starting');
      else if (conn.connectionState === 'failed') void endSession(false).then(() => retrySoon('The connection was lost.'));
    });
    await conn.setLocalDescription(await conn.createOffer());
    await waitForCandidates(conn, 3000);
    const res = await fetch(`/v1/streams/${encodeURIComponent(streamId)}/whip${takeover ? '?takeover=true' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${token}` },
      body: conn.localDescription.sdp,
    });
    if (res.status !== 201) {
      const problem = await res.json().catch(() => null);
      conn.close();
      pc = null;
      const why = (problem && problem.detail) || `Vigil answered ${res.status}.`;
      if (res.status === 409) return onBusy(problem);
      // a server hiccup may clear; a bad token will not
      if (res.status >= 500) return retrySoon(why);
      return show(why, 'error');
    }
    sessionUrl = new URL(res.headers.get('location'), location.href).toString();
    localStorage.setItem(KEPT, sessionUrl.split('/').pop());
    holdLock();
    await conn.setRemoteDescription({ type: 'answer', sdp: await res.text() });
  } catch (err) {
    await endSession(false);
    retrySoon(`Could not publish: ${err && err.message ? err.message : err}.`);
  }
}

toggle.addEventListener('click', () => {
  wanted = !wanted;
  toggle.textContent = wanted ? 'Stop' : 'Start';
  clearTimeout(retryTimer);
  if (wanted) void publish();
  else void endSession(false).then(() => show('Stopped.', 'idle'));
});
takeoverButton.addEventListener('click', () => {
  wanted = true;
  toggle.textContent = 'Stop';
  clearTimeout(retryTimer);
  void publish(true);
});
window.addEventListener('pagehide', () => void endSession(true));
void publish();
