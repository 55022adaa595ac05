import { painter, STYLES } from '../terminal-text.js';

/** Renders streamed Markdown; {@link flush} ends the last, unfinished line. */
export interface MarkdownStream {
  write(text: string): void;
  flush(): void;
}

const BLOCK_START = /^[#\-*+>`~]/;
const FENCE = /^\s*(```+|~~~+)\s*([\w+#.-]*)\s*$/;
const on = (style: keyof typeof STYLES) => `\x1b[${STYLES[style]}m`;

/**
 * Markdown for a terminal, as it streams. A plain line is written as it arrives, with `inline
 * code` in cyan and **strong** in bold; a line that starts like a block (a heading, a bullet, a
 * quote, a code fence) is held until its newline and then rendered — headings bold, bullets as
 * `•`, quotes dimmed, a fenced code block framed by a line naming its language, its lines (streamed
 * too) in cyan. The text it gets is already printable (no control characters); it only adds
 * tiny-claw's own colours.
 *
 * @example
 * const md = createMarkdownStream((text) => process.stdout.write(text));
 * md.write('# Title\n- one\n'); md.flush();
 */
export function createMarkdownStream(write: (text: string) => void): MarkdownStream {
  const paint = painter(true);
  let line = '';
  let mode: 'start' | 'text' | 'block' | 'code' = 'start';
  let fence: string | undefined;
  let code = false;
  let bold = false;
  let star = false;

  const inline = (text: string): string => {
    let out = '';
    for (const char of text) {
      if (star) {
        star = false;
        if (char === '*') {
          bold = !bold;
          out += bold ? on('bold') : `${on('reset')}${code ? on('cyan') : ''}`;
          continue;
        }
        out += '*';
      }
      if (char === '`') {
        code = !code;
        out += code ? on('cyan') : `${on('reset')}${bold ? on('bold') : ''}`;
      } else if (char === '*' && !code) star = true;
      else out += char;
    }
    return out;
  };

  const closeInline = (): string => {
    const out = `${star ? '*' : ''}${code || bold ? on('reset') : ''}`;
    star = false;
    code = false;
    bold = false;
    return out;
  };

  const renderBlock = (text: string): string => {
    const opening = FENCE.exec(text);
    if (fence !== undefined) {
      if (opening?.[1]?.startsWith(fence)) {
        fence = undefined;
        return paint('dim', '└─');
      }
      return `${paint('dim', '│')} ${paint('cyan', text)}`;
    }
    if (opening) {
      fence = opening[1]?.slice(0, 3) ?? '```';
      return paint('dim', `┌─ ${opening[2] || 'code'}`);
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(text);
    if (heading) return paint('bold', heading[2] ?? '');
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(text);
    if (bullet) return `${bullet[1]}• ${inline(bullet[2] ?? '')}${closeInline()}`;
    const quote = /^>\s?(.*)$/.exec(text);
    if (quote) return paint('dim', `│ ${quote[1]}`);
    return `${inline(text)}${closeInline()}`;
  };

  /** Decide, from the start of a line, whether it streams or waits for its newline. */
  const decide = () => {
    const start = line.trimStart();
    if (start === '') return;
    if (fence !== undefined) {
      // Inside a code block only a closing fence waits; anything else streams in cyan.
      if (/^[`~]+$/.test(start)) return;
      mode = 'code';
      write(`${paint('dim', '│')} ${on('cyan')}${line}`);
    } else if (BLOCK_START.test(start)) {
      mode = 'block';
    } else {
      mode = 'text';
      write(inline(line));
    }
  };

  const endLine = () => {
    if (mode === 'text') write(`${closeInline()}\n`);
    else if (mode === 'code') write(`${on('reset')}\n`);
    else write(`${renderBlock(line)}\n`);
    line = '';
    mode = 'start';
  };

  return {
    write(text) {
      for (const char of text) {
        if (char === '\n') endLine();
        else if (mode === 'text') write(inline(char));
        else if (mode === 'code') write(char);
        else {
          line += char;
          if (mode === 'start') decide();
        }
      }
    },
    flush() {
      if (mode !== 'start' || line !== '') endLine();
      fence = undefined;
    },
  };
}
