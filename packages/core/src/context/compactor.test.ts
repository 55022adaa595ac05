import { describe, expect, it } from 'vitest';
import { type Message, messageSchema, msg } from '../messages.js';
import { compactForRequest } from './compactor.js';

const call = (i: number) => ({ id: `c${i}`, name: 'read', arguments: { path: `f${i}` } });

/** One assistant turn per batch, each answered by its tool results. */
function history(batches: Array<string | string[]>): Message[] {
  const messages: Message[] = [msg.system('rules'), msg.user('task')];
  let n = 0;
  for (const batch of batches) {
    const outputs = typeof batch === 'string' ? [batch] : batch;
    const calls = outputs.map(() => call(n++));
    messages.push(msg.assistant('', calls));
    outputs.forEach((output, i) => {
      messages.push(msg.tool(calls[i] as ReturnType<typeof call>, output));
    });
  }
  return messages;
}

const tools = (messages: readonly Message[]) => messages.filter((m) => m.role === 'tool');
const pagedOutput = (fill: string) =>
  `1: ${fill.repeat(50_000)}\n540: end of page\n\n[showing lines 1-540 of 2000; continue with offset=541]`;

describe('compactForRequest', () => {
  it('leaves a conversation under budget untouched (same array)', () => {
    const messages = history(['small']);
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 1000,
      retainLastMessages: 8,
    });
    expect(out).toBe(messages);
    expect(report.changed).toBe(false);
  });

  it('masks old tool results and trims recent long ones without mutating the stored history', () => {
    const big = `HEAD${'x'.repeat(300_000)}TAIL`;
    const messages = history(['old output', 'older two', big, 'latest']);
    const snapshot = JSON.stringify(messages);
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 120_000,
      retainLastMessages: 4,
    });
    expect(JSON.stringify(messages)).toBe(snapshot);
    const results = tools(out);
    expect(results[0]?.content).toBe(
      '[Earlier tool output removed to save context. Tool: read. Original length: 10 chars. Re-run the call if you need it again.]',
    );
    expect(results[2]?.content.startsWith('HEAD')).toBe(true);
    expect(results[2]?.content).toContain('TAIL\n\n[Tiny Claw shortened this earlier tool result');
    expect(results[2]?.content).toContain('originally 300008 characters');
    expect(results[2]?.content).toContain('characters left out here by Tiny Claw');
    expect(results[3]?.content).toBe('latest');
    expect(report).toMatchObject({
      changed: true,
      maskedToolResults: 2,
      truncatedToolResults: 1,
      protectedToolResults: 1,
      overBudget: false,
    });
    expect(report.compactedChars).toBeLessThan(10_000);
  });

  it('never changes system, user or assistant messages', () => {
    const messages = [
      msg.system('s'.repeat(5000)),
      msg.user('u'.repeat(5000)),
      msg.assistant('a'.repeat(5000)),
    ];
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 100,
      retainLastMessages: 1,
    });
    expect(out).toBe(messages);
    expect(report.overBudget).toBe(true);
  });

  it('compacts harder at the aggressive level, even under the normal budget', () => {
    const messages = history(['a'.repeat(5000), 'b'.repeat(5000), 'c'.repeat(5000), 'd']);
    const { report } = compactForRequest(
      messages,
      { maxChars: 120_000, retainLastMessages: 8 },
      'aggressive',
    );
    expect(report.level).toBe('aggressive');
    expect(report.maskedToolResults).toBeGreaterThan(0);
    expect(report.compactedChars).toBeLessThan(report.originalChars);
  });
});

describe('the latest tool batch is never shortened', () => {
  it('keeps every result after the last assistant message whole, at both levels, and reports it over budget', () => {
    const unseen = ['p'.repeat(60_000), 'q'.repeat(60_000), 'r'.repeat(60_000)];
    const messages = history(['s'.repeat(60_000), unseen]);
    for (const level of ['normal', 'aggressive'] as const) {
      const { messages: out, report } = compactForRequest(
        messages,
        { maxChars: 120_000, retainLastMessages: 2 },
        level,
      );
      expect(
        tools(out)
          .slice(1)
          .map((m) => m.content),
      ).toEqual(unseen);
      expect(tools(out)[0]?.content).toContain('Earlier tool output removed');
      expect(report).toMatchObject({ protectedToolResults: 3, overBudget: true });
    }
  });

  it('cuts a batch once the model has answered it', () => {
    const messages = [...history([pagedOutput('a'), pagedOutput('b')]), msg.assistant('looked')];
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 50_000,
      retainLastMessages: 8,
    });
    expect(report).toMatchObject({ protectedToolResults: 0, truncatedToolResults: 2 });
    expect(tools(out).every((m) => m.content.length < 6000)).toBe(true);
  });
});

describe('a cut result carries an honest footer', () => {
  it('drops a trailing bracketed closing note, so no stale "continue" hint survives', () => {
    const messages = history([pagedOutput('a'), pagedOutput('b'), 'latest']);
    const { messages: out } = compactForRequest(messages, {
      maxChars: 50_000,
      retainLastMessages: 8,
    });
    for (const cut of tools(out).slice(0, 2)) {
      expect(cut.content).not.toContain('offset=541');
      expect(cut.content).not.toContain('showing lines');
      expect(cut.content).toContain('540: end of page');
      expect(cut.content).toMatch(
        /and so was the tool's closing note, which described the whole result \(such as where to continue\)\. What is shown is not the complete result: re-run the same call to see all of it\.\]$/,
      );
    }
  });

  it('drops a closing note the tool declares as footerChars, whatever its form', () => {
    const footer = '\n\n-- page 1 of 4, next: page=2 --';
    const call0 = call(0);
    const messages: Message[] = [
      msg.system('rules'),
      msg.assistant('', [call0]),
      msg.tool(call0, `${'z'.repeat(50_000)}LAST${footer}`, { footerChars: footer.length }),
      msg.assistant('', [call(1)]),
      msg.tool(call(1), 'latest'),
    ];
    const { messages: out } = compactForRequest(messages, {
      maxChars: 10_000,
      retainLastMessages: 8,
    });
    const cut = tools(out)[0]?.content ?? '';
    expect(cut).not.toContain('page=2');
    expect(cut).toContain('LAST\n\n[Tiny Claw shortened');
    expect(cut).toContain("and so was the tool's closing note");
  });

  it('drops the closing note of a result saved before footerChars was a field (footer_chars metadata)', () => {
    const footer = '\n\n-- page 1 of 4, next: page=2 --';
    const saved = messageSchema.parse({
      role: 'tool',
      content: `${'z'.repeat(50_000)}LAST${footer}`,
      toolCallId: 'c0',
      name: 'read',
      metadata: { footer_chars: footer.length, tool_call_index: 0 },
    });
    expect(saved).toMatchObject({ footerChars: footer.length, metadata: { tool_call_index: 0 } });
    const messages: Message[] = [
      msg.system('rules'),
      msg.assistant('', [call(0)]),
      saved,
      msg.assistant('', [call(1)]),
      msg.tool(call(1), 'latest'),
    ];
    const { messages: out } = compactForRequest(messages, {
      maxChars: 10_000,
      retainLastMessages: 8,
    });
    const cut = tools(out)[0]?.content ?? '';
    expect(cut).not.toContain('page=2');
    expect(cut).toContain("and so was the tool's closing note");
  });

  it('keeps the tail when there is no closing note, and still says the result is incomplete', () => {
    const messages = history([`${'y'.repeat(50_000)}\nexit code 1`, 'latest']);
    const { messages: out } = compactForRequest(messages, {
      maxChars: 10_000,
      retainLastMessages: 8,
    });
    const cut = tools(out)[0]?.content ?? '';
    expect(cut).toContain('exit code 1\n\n[Tiny Claw shortened');
    expect(cut).not.toContain('closing note');
    expect(cut).toContain('re-run the same call to see all of it');
  });
});

describe('the token budget of compactForRequest', () => {
  // Chinese costs about one token per character: 20,000 characters are some 16,000 tokens.
  const chinese = '上下文压缩只在发送请求的那一刻进行，存储的历史永远不会被改写。'.repeat(650);
  const english = 'The compactor shortens old tool results for one request only. '.repeat(450);

  it('compacts Chinese that fits the character budget but not the tokens that go with it', () => {
    const messages = history([chinese, 'latest']);
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 40_000,
      retainLastMessages: 1,
    });
    expect(report.originalChars).toBeLessThan(40_000);
    expect(report.maxTokens).toBe(10_000);
    expect(report.originalTokens).toBeGreaterThan(10_000);
    expect(report).toMatchObject({ changed: true, maskedToolResults: 1, overBudget: false });
    expect(report.compactedTokens).toBeLessThan(100);
    expect(tools(out)[0]?.content).toContain('Earlier tool output removed');
  });

  it('leaves English of the same length alone: for it the two budgets agree', () => {
    const messages = history([english, 'latest']);
    const { messages: out, report } = compactForRequest(messages, {
      maxChars: 40_000,
      retainLastMessages: 1,
    });
    expect(report.originalChars).toBeGreaterThan(20_000);
    expect(report.originalTokens).toBeLessThan(10_000);
    expect(out).toBe(messages);
  });

  it('takes an explicit token budget, and halves it at the aggressive level', () => {
    const messages = history([english, 'latest']);
    const options = { maxChars: 1_000_000, maxTokens: 2_000, retainLastMessages: 1 };
    expect(compactForRequest(messages, options).report).toMatchObject({
      maxTokens: 2_000,
      changed: true,
    });
    expect(compactForRequest(messages, options, 'aggressive').report.maxTokens).toBe(1_000);
  });

  it('multiplies the estimate by the learnt scale, and ignores a scale that is no number', () => {
    const messages = history([english, 'latest']);
    const options = { maxChars: 40_000, retainLastMessages: 1 };
    const plain = compactForRequest(messages, options).report;
    const scaled = compactForRequest(messages, options, 'normal', 2).report;
    expect(scaled.tokenScale).toBe(2);
    expect(scaled.originalTokens).toBeGreaterThanOrEqual(2 * plain.originalTokens - 1);
    expect(scaled.changed).toBe(true);
    expect(compactForRequest(messages, options, 'normal', Number.NaN).report.tokenScale).toBe(1);
  });

  it('hands out the same shortened copy on every request, so nothing is cut or counted twice', () => {
    const messages = history([english, `${'y'.repeat(50_000)}\nexit code 1`, 'latest']);
    const options = { maxChars: 10_000, retainLastMessages: 3 };
    const first = compactForRequest(messages, options).messages;
    const second = compactForRequest(messages, options).messages;
    expect(tools(second)[0]).toBe(tools(first)[0]);
    expect(tools(second)[1]).toBe(tools(first)[1]);
    expect(tools(second)[1]?.content).toContain('exit code 1\n\n[Tiny Claw shortened');
  });
});
