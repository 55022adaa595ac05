import { painter } from '../terminal-text.js';

/** Renders streamed Markdown line by line; {@link flush} ends the last, unfinished line. */
export interface MarkdownStream {
  write(text: string): void;
  flush(): void;
}

/**
 * Markdown for a terminal, as it streams: each complete line is rendered as soon as its newline
 * arrives — headings bold, list bullets as `•`, quotes dimmed, a fenced code block framed by a
 * line naming its language with its lines in cyan, `inline code` in cyan and **strong** in bold.
 * The text it gets is already printable (no control characters); it only adds tiny-claw's own
 * colours.
 *
 * @example
 * const md = createMarkdownStream((text) => process.stdout.write(text));
 * md.write('# Title\n- one\n'); md.flush();
 */
export function createMarkdownStream(write: (text: string) => void): MarkdownStream {
  const paint = painter(true);
  let pending = '';
  let fence: string | undefined;

  const renderInline = (line: string): string =>
    line
      .replace(/`([^`]+)`/g, (_m, code: string) => paint('cyan', code))
      .replace(/\*\*([^*]+)\*\*/g, (_m, strong: string) => paint('bold', strong));

  const renderLine = (line: string): string => {
    const opening = /^\s*(```+|~~~+)\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence !== undefined) {
      if (opening?.[1]?.startsWith(fence)) {
        fence = undefined;
        return paint('dim', '└─');
      }
      return `${paint('dim', '│')} ${paint('cyan', line)}`;
    }
    if (opening) {
      fence = opening[1]?.slice(0, 3) ?? '```';
      return paint('dim', `┌─ ${opening[2] || 'code'}`);
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) return paint('bold', heading[2] ?? '');
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) return `${bullet[1]}• ${renderInline(bullet[2] ?? '')}`;
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) return paint('dim', `│ ${quote[1]}`);
    return renderInline(line);
  };

  return {
    write(text) {
      pending += text;
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        write(`${renderLine(pending.slice(0, newline))}\n`);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    },
    flush() {
      if (pending !== '') write(`${renderLine(pending)}\n`);
      pending = '';
      fence = undefined;
    },
  };
}
