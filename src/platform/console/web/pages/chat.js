import { html, useState, useRef, useEffect, Page, ErrorBox } from '../ui.js';
import { converseStreaming } from '../api.js';

function describe(action) {
  const what = action.type.replace(/[._]/g, ' ');
  return `${what}${action.subject ? `: ${action.subject}` : ''}${action.window ? ` (${action.window})` : ''}`;
}

/** The household agent, streamed: tokens as they come and each action as it is taken (docs/design.md "SSE"). */
export function Chat() {
  const [turns, setTurns] = useState([]);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const conversation = useRef(null);
  const end = useRef(null);
  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [turns]);

  const update = (i, fn) => setTurns((all) => all.map((t, k) => (k === i ? fn(t) : t)));
  const send = async (e) => {
    e.preventDefault();
    const message = text.trim();
    if (!message) return;
    setText('');
    setError(null);
    setBusy(true);
    let index;
    setTurns((all) => {
      index = all.length;
      return [...all, { message, reply: '', actions: [], done: false }];
    });
    try {
      await converseStreaming(message, conversation.current, (event, data) => {
        if (event === 'conversation.created') conversation.current = data.conversation.id;
        else if (event === 'reply.delta') update(index, (t) => ({ ...t, reply: t.reply + data.delta }));
        else if (event === 'action') update(index, (t) => ({ ...t, actions: [...t.actions, data.action] }));
        else if (event === 'conversation.completed') update(index, (t) => ({ ...t, reply: data.conversation.reply, done: true }));
        else if (event === 'error') throw Object.assign(new Error(data.error.detail), { problem: data.error });
      });
    } catch (err) {
      setError(err);
    } finally {
      update(index, (t) => ({ ...t, done: true }));
      setBusy(false);
    }
  };

  return html`<${Page} title="Chat with your home">
    <ol class="chat" aria-live="polite">
      ${turns.map(
        (t, i) =>
          html`<li class="turn" data-turn=${i}>
            <p class="bubble me"><span class="sr-only">You: </span>${t.message}</p>
            <div class="bubble agent" aria-busy=${t.done ? 'false' : 'true'}>
              ${
                t.actions.length
                  ? html`<ul class="actions" aria-label="Actions taken">
                      ${t.actions.map((a) => html`<li class="chat-action" data-type=${a.type}>✓ ${describe(a)}</li>`)}
                    </ul>`
                  : ''
              }
              <p class="reply">${t.reply}${t.done ? '' : html`<span class="cursor" aria-hidden="true">▍</span>`}</p>
            </div>
          </li>`,
      )}
      <li ref=${end} class="sr-only" aria-hidden="true"></li>
    </ol>
    <${ErrorBox} error=${error} />
    <form class="chat-form" onSubmit=${send}>
      <label class="sr-only" for="chat-input">Message</label>
      <input id="chat-input" value=${text} onInput=${(e) => setText(e.target.value)} placeholder="e.g. watch the back door tonight" maxlength="2000" autocomplete="off" />
      <button type="submit" class="primary" disabled=${busy}>${busy ? 'Sending…' : 'Send'}</button>
    </form>
  </${Page}>`;
}
