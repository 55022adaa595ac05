/** Longest chat message sent in one piece; Feishu's own channel layer uses the same bound. */
export const MESSAGE_CHUNK_CHARS = 3500;

const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;
/** Longest fence-opening line repeated at the top of a continued chunk. */
const MAX_REOPEN_CHARS = 40;

interface OpenFence {
  marker: string;
  /** The line that reopens the block in the next chunk (the fence and its language). */
  reopen: string;
}

/**
 * Split a long answer into chat messages of at most `limit` characters (at least 100), at line
 * ends where possible, without breaking a code block: a chunk that ends inside a fenced block
 * closes it, and the next chunk reopens it with the same fence and language, so every chunk
 * renders on its own. A line too long for a chunk is cut.
 *
 * @example
 * splitMessage('intro\n```ts\n' + 'const x = 1;\n'.repeat(400) + '```'); // chunks with balanced fences
 */
export function splitMessage(text: string, limit = MESSAGE_CHUNK_CHARS): string[] {
  if (text.length <= limit) return [text];
  // Room kept in every chunk for a reopened fence at the top and a closing one at the bottom.
  const width = limit - 2 * (MAX_REOPEN_CHARS + 2);
  const chunks: string[] = [];
  let lines: string[] = [];
  let size = 0;
  let open: OpenFence | undefined;

  const push = (line: string) => {
    size += (lines.length === 0 ? 0 : 1) + line.length;
    lines.push(line);
  };
  const flush = () => {
    if (lines.length > 0) chunks.push([...lines, ...(open ? [open.marker] : [])].join('\n'));
    lines = [];
    size = 0;
    if (open) push(open.reopen);
  };

  for (const line of text.split('\n')) {
    const pieces = line.length <= width ? [line] : cut(line, width);
    for (const piece of pieces) {
      const after = nextFence(open, piece);
      const closing = after ? after.marker.length + 1 : 0;
      const fits = size + (lines.length === 0 ? 0 : 1) + piece.length + closing <= limit;
      const onlyReopen = open !== undefined && lines.length === 1;
      if (!fits && lines.length > 0 && !onlyReopen) flush();
      push(piece);
      open = after;
    }
  }
  if (lines.length > 0 && !(open !== undefined && lines.length === 1 && chunks.length > 0)) {
    chunks.push([...lines, ...(open ? [open.marker] : [])].join('\n'));
  }
  return chunks;
}

/** The fence state after `line`: a fence opens a block, the same kind of bare fence closes it. */
function nextFence(open: OpenFence | undefined, line: string): OpenFence | undefined {
  const match = FENCE.exec(line);
  if (!match) return open;
  const marker = match[1] as string;
  const info = (match[2] ?? '').trim();
  if (open === undefined) {
    return { marker, reopen: `${marker}${info}`.slice(0, MAX_REOPEN_CHARS) };
  }
  const closes = marker[0] === open.marker[0] && marker.length >= open.marker.length && info === '';
  return closes ? undefined : open;
}

function cut(line: string, width: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < line.length; at += width) pieces.push(line.slice(at, at + width));
  return pieces;
}
