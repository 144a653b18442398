/**
 * Server-sent events parser (WHATWG HTML "Parsing an event stream"): `field: value` lines, a blank
 * line dispatches, `:` lines are comments (the service's `: ping` keep-alives), several `data:`
 * lines join with "\n". Yields `{event, id, data}` with `data` as text.
 */
export async function* parseEventStream(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  let dataLines = [];
  let eventName;
  let lastId;

  function* processLine(line) {
    if (line === '') {
      if (dataLines.length > 0) yield { event: eventName ?? 'message', id: lastId, data: dataLines.join('\n') };
      dataLines = [];
      eventName = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') dataLines.push(value);
    else if (field === 'event') eventName = value;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  }

  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (;;) {
      const m = /\r\n|\n|\r/.exec(buffer);
      if (!m) break;
      // a lone trailing "\r" may be the first half of "\r\n" split across chunks
      if (m[0] === '\r' && m.index === buffer.length - 1) break;
      const line = buffer.slice(0, m.index);
      buffer = buffer.slice(m.index + m[0].length);
      yield* processLine(line);
    }
  }
  buffer += decoder.decode();
  if (buffer !== '') yield* processLine(buffer.replace(/\r$/, ''));
  // an event without its terminating blank line is incomplete and, per the spec, dropped
}
