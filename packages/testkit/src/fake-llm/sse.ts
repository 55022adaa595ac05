/** One server-sent event as it travels on the wire. */
export interface SseEvent {
  /** The `event:` field; absent for OpenAI's data-only events. */
  event?: string;
  data: string;
}

/**
 * Encode one event: an optional `event:` line, one `data:` line per line of data, a blank line.
 *
 * @example
 * encodeSse({ data: '[DONE]' }); // 'data: [DONE]\n\n'
 */
export function encodeSse(event: SseEvent): string {
  const head = event.event === undefined ? '' : `event: ${event.event}\n`;
  const body = event.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${head}${body}\n`;
}

/**
 * Parse an SSE body into events (the subset of the spec both APIs use: `event:` and `data:` fields,
 * `:` comments ignored, CRLF tolerated). Handy for tests that read a stream with plain `fetch`.
 *
 * @example
 * parseSse('event: ping\ndata: {}\n\n'); // [{ event: 'ping', data: '{}' }]
 */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    let name: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
    if (name === undefined && data.length === 0) continue;
    events.push(
      name === undefined ? { data: data.join('\n') } : { event: name, data: data.join('\n') },
    );
  }
  return events;
}

/** The events of one streamed turn, in order. */
export interface StreamPlan {
  events: SseEvent[];
  /**
   * How many leading events leave the turn unfinished: the index of the first event that carries
   * the finish/stop reason. A `cut` sends at most this many by default.
   */
  openEvents: number;
}
