import { html, useState, useLoad, Page, ErrorBox, Empty, ActionButton, Badge } from '../ui.js';
import { get, post } from '../api.js';

/**
 * Sensors and rooms. Surface A changes state only through the agent, so mute and unmute are
 * sentences sent to it; its reply is shown.
 */
export function Sensors() {
  const [home, error, reload] = useLoad(() => get('/v1/household'), []);
  const [reply, setReply] = useState(null);
  const say = (message) => async () => {
    const out = await post('/v1/conversations', { message });
    setReply(out.reply);
    reload();
  };
  if (error) return html`<${Page} title="Sensors & rooms"><${ErrorBox} error=${error} /></${Page}>`;
  if (!home) return html`<${Page} title="Sensors & rooms"><p aria-busy="true">Loading…</p></${Page}>`;
  const alone = home.rooms.filter((r) => r.left_alone);
  return html`<${Page} title="Sensors & rooms">
    <p class="muted">${home.name}${home.city ? ` · ${home.city}` : ''} · ${home.time_zone}</p>
    ${reply ? html`<p class="card notice" role="status" id="agent-reply">${reply}</p>` : ''}
    <h2>Sensors</h2>
    ${
      home.sensors.length
        ? html`<table class="list">
            <caption class="sr-only">
              Sensors
            </caption>
            <thead>
              <tr>
                <th scope="col">Sensor</th>
                <th scope="col">Room</th>
                <th scope="col">State</th>
                <th scope="col"><span class="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${home.sensors.map(
                (s) =>
                  html`<tr data-sensor=${s.id}>
                    <td>${s.name} <span class="muted small">${s.kind}</span></td>
                    <td>${s.room}</td>
                    <td>
                      ${s.left_alone ? html`<${Badge} kind="warn">room left alone</${Badge}>` : s.muted ? html`<${Badge} kind="warn">muted</${Badge}>` : html`<${Badge} kind="ok">${s.status}</${Badge}>`}
                    </td>
                    <td>
                      ${s.muted ? html`<${ActionButton} label="Unmute" run=${say(`unmute the ${s.name}`)} />` : html`<${ActionButton} label="Mute" run=${say(`mute the ${s.name}`)} />`}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : html`<${Empty}>No sensors.</${Empty}>`
    }
    <h2>Rooms left alone</h2>
    ${
      alone.length
        ? html`<ul>
            ${alone.map((r) => html`<li>${r.name}</li>`)}
          </ul>`
        : html`<${Empty}>None: every room is looked at. Ask in the chat to leave one alone.</${Empty}>`
    }
    <h2>Rooms</h2>
    <ul class="inline-list">${home.rooms.map((r) => html`<li>${r.name}</li>`)}</ul>
  </${Page}>`;
}
