import { html, useState, useLoad, Page, ErrorBox, Empty, fmtTime, ActionButton, Badge } from '../ui.js';
import { get, del } from '../api.js';

export function Watches() {
  const [list, error, reload] = useLoad(() => get('/v1/watches?limit=100'), []);
  const [notice, setNotice] = useState(null);
  return html`<${Page} title="Watches">
    ${notice ? html`<p class="card notice" id="watch-notice" role="status">${notice}</p>` : ''}
    <${ErrorBox} error=${error} />
    ${list && !list.data.length ? html`<${Empty}>Nothing is watched. Ask in the chat, e.g. “watch the back door tonight”.</${Empty}>` : ''}
    <ul class="cards">
      ${(list?.data ?? []).map(
        (w) =>
          html`<li class="card watch" data-watch=${w.id}>
            <h2>${w.subject}</h2>
            <p>${w.window} · ${fmtTime(w.starts_at)} → ${fmtTime(w.ends_at)}${w.recurrence !== 'none' ? ` · ${w.recurrence}` : ''}</p>
            <p>
              ${w.status === 'active' ? html`<${Badge} kind="ok">${w.observing ? 'observing now' : 'under observation'}</${Badge}>` : html`<${Badge}>stood down ${fmtTime(w.stood_down_at)}</${Badge}>`}
              ${w.conditions?.length ? html` <span class="muted small">for ${w.conditions.join(', ').replace(/_/g, ' ')}</span>` : ''}
            </p>
            ${
              w.status === 'active'
                ? html`<${ActionButton}
                    label="Stand down"
                    kind="danger"
                    run=${async () => {
                      await del(`/v1/watches/${w.id}`);
                      setNotice(`Stood down: ${w.subject}. It is no longer watched.`);
                      reload();
                    }}
                  />`
                : ''
            }
          </li>`,
      )}
    </ul>
  </${Page}>`;
}
