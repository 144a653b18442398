import { html, useState, useLoad, Page, ErrorBox, Empty, fmtTime, ActionButton, Badge } from '../ui.js';
import { get } from '../api.js';

export function HomeEvents() {
  const [extra, setExtra] = useState([]);
  const [list, error] = useLoad(() => get('/v1/events?limit=50'), []);
  const all = [...(list?.data ?? []), ...extra];
  const hasMore = extra.length ? extra.hasMore : list?.has_more;
  const more = async () => {
    const page = await get(`/v1/events?limit=50&starting_after=${all[all.length - 1].id}`);
    const next = [...extra, ...page.data];
    next.hasMore = page.has_more;
    setExtra(next);
  };
  return html`<${Page} title="Events">
    <${ErrorBox} error=${error} />
    ${list && !all.length ? html`<${Empty}>No events yet.</${Empty}>` : ''}
    <ol class="timeline">${all.map(
      (e) =>
        html`<li class=${`tl ${e.kind.replace('.', '-')}`}>
          <time datetime=${e.occurred_at}>${fmtTime(e.occurred_at)}</time>
          <span
            >${e.kind === 'alert' ? html`<${Badge} kind="danger">alert</${Badge}> ` : e.kind === 'observation' ? html`<${Badge} kind="warn">seen</${Badge}> ` : ''}${e.summary}</span
          >
          ${e.detection ? html`<span class="muted small"> · ${e.detection.type}${e.detection.subtype ? ` (${e.detection.subtype})` : ''}, ${Math.round(e.detection.confidence * 100)}%</span>` : ''}
        </li>`,
    )}</ol>
    ${hasMore ? html`<${ActionButton} label="Older events" run=${more} />` : ''}
  </${Page}>`;
}
