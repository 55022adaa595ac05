import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../messages.js';
import { type FailureKind, failureKinds, type ToolFailure } from '../tool.js';
import type { ToolMetadata } from '../tool-metadata.js';
import { classifyFailure, renderFailure, translateFailure } from './failure-guidance.js';

const VISIBLE = ['lookup', 'search'];

function failed(
  options: {
    name?: string;
    content?: string;
    failure?: ToolFailure;
    metadata?: ToolMetadata;
    visibleTools?: readonly string[];
  } = {},
) {
  const call: ToolCall = { id: 'c1', name: options.name ?? 'lookup', arguments: { city: 'Oslo' } };
  return {
    call,
    output: {
      content: options.content ?? 'it failed',
      isError: true,
      ...(options.failure ? { failure: options.failure } : {}),
      ...(options.metadata ? { metadata: options.metadata } : {}),
    },
    visibleTools: options.visibleTools ?? VISIBLE,
  };
}

describe('classifyFailure', () => {
  it('calls a tool the model cannot see unknown and lists the tools it can see', () => {
    const g = classifyFailure(
      failed({ name: 'explore_everything', failure: { kind: 'not_found' } }),
    );
    expect(g).toMatchObject({ kind: 'unknown_tool', retryable: true });
    expect(g.nextAction).toBe('Use only the tools you can see: lookup, search.');
    expect(g.suggestedTool).toBeUndefined();
  });

  it('is not retryable when no tool is visible and says to answer directly', () => {
    const g = classifyFailure(failed({ visibleTools: [] }));
    expect(g).toMatchObject({ kind: 'unknown_tool', retryable: false });
    expect(g.nextAction).toContain('answer the user directly');
  });

  it("takes the next step from the tool's own advice", () => {
    const g = classifyFailure(
      failed({ failure: { kind: 'not_found', advice: '  List the cities first.  ' } }),
    );
    expect(g).toMatchObject({
      kind: 'not_found',
      summary: 'the target does not exist',
      nextAction: 'List the cities first.',
      avoid: 'Do not keep guessing names.',
      retryable: true,
    });
  });

  it('falls back to generic advice for the kind when the tool gives none', () => {
    const g = classifyFailure(failed({ failure: { kind: 'timeout' } }));
    expect(g.nextAction).toContain('Narrow what the call does');
  });

  it('calls an output without a typed failure an execution error, whatever its text says', () => {
    const texts = ['could not find old_text', 'path does not exist', 'timed out', 'exit code 1'];
    for (const content of texts) {
      expect(classifyFailure(failed({ content })).kind).toBe('execution_error');
    }
  });

  it('never reads the message: the same kind gives the same guidance whatever the wording', () => {
    const a = classifyFailure(failed({ content: 'one wording', failure: { kind: 'no_match' } }));
    const b = classifyFailure(failed({ content: 'another', failure: { kind: 'no_match' } }));
    expect(a).toEqual(b);
  });

  it('keeps a suggested tool only when the model can see it, and defaults to the same tool', () => {
    const visible = classifyFailure(
      failed({ failure: { kind: 'not_found', suggestedTool: 'search' } }),
    );
    const hidden = classifyFailure(
      failed({ failure: { kind: 'not_found', suggestedTool: 'shell' } }),
    );
    const none = classifyFailure(failed({ failure: { kind: 'not_found' } }));
    expect(visible.suggestedTool).toBe('search');
    expect(hidden.suggestedTool).toBeUndefined();
    expect(none.suggestedTool).toBe('lookup');
  });

  it('has a summary, a next step and an avoid line for every kind, none naming a tool', () => {
    for (const kind of failureKinds) {
      const g = classifyFailure(failed({ failure: { kind } }));
      const expected: FailureKind = kind;
      expect(g.kind).toBe(expected);
      for (const text of [g.summary, g.nextAction, g.avoid]) {
        expect(text.length).toBeGreaterThan(5);
        expect(text).not.toMatch(/\b(bash|explore)\b|['"`](read|write|edit)['"`]/);
      }
    }
  });
});

describe('renderFailure', () => {
  const guidance = { summary: 'S', nextAction: 'N', avoid: 'A' };

  it('lays out summary, raw error, next step, avoid and attempt', () => {
    expect(renderFailure(guidance, '  boom\n', 1)).toBe(
      'Tool failed: S\n\nError:\nboom\n\nNext step:\nN\n\nAvoid:\nA\n\nAttempt: 1',
    );
  });

  it('says so when the raw error is empty and warns from the second attempt', () => {
    const text = renderFailure(guidance, '   ', 2);
    expect(text).toContain('Error:\n(empty error)\n');
    expect(text).toMatch(/Attempt: 2\n\nRepeat warning:\n.*do not send it again unchanged\.$/);
  });
});

describe('translateFailure', () => {
  it('returns one failure with the kind, the tool code and the verdict, and the tool metadata as it was', () => {
    const metadata = { size: 3 };
    const { output } = translateFailure(
      failed({
        content: 'no such city: Oslo',
        failure: {
          kind: 'not_found',
          code: 'city_missing',
          advice: 'List first.',
          suggestedTool: 'search',
        },
        metadata,
      }),
      2,
    );
    expect(output).toEqual({
      content: expect.stringMatching(/^Tool failed: the target does not exist/),
      isError: true,
      failure: {
        kind: 'not_found',
        code: 'city_missing',
        advice: 'List first.',
        suggestedTool: 'search',
        retryable: true,
        attempt: 2,
      },
      metadata: { size: 3 },
    });
    expect(output.metadata).toBe(metadata);
  });

  it('drops a suggestion the model cannot follow and adds no metadata the tool did not give', () => {
    const { output } = translateFailure(
      failed({ failure: { kind: 'not_found', suggestedTool: 'shell' } }),
      1,
    );
    expect(output.failure).toEqual({
      kind: 'not_found',
      advice: expect.any(String),
      retryable: true,
      attempt: 1,
    });
    expect(output).not.toHaveProperty('metadata');
  });

  it('keeps the tool code when the call is judged a call to an unknown tool', () => {
    const { output } = translateFailure(
      failed({ name: 'hidden', failure: { kind: 'not_found', code: 'city_missing' } }),
      1,
    );
    expect(output.failure).toMatchObject({ kind: 'unknown_tool', code: 'city_missing' });
  });
});
