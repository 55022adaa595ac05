import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../messages.js';
import type { ToolMetadata } from '../tool-metadata.js';
import { classifyFailure, renderFailure, translateFailure } from './failure-guidance.js';

const ALL = ['bash', 'edit', 'read', 'write'];

function failed(
  name: string,
  args: Record<string, unknown>,
  content: string,
  metadata?: ToolMetadata,
  visibleTools: readonly string[] = ALL,
) {
  const call: ToolCall = { id: 'c1', name, arguments: args };
  return {
    call,
    output: { content, isError: true, ...(metadata ? { metadata } : {}) },
    visibleTools,
  };
}

describe('classifyFailure: unknown_tool', () => {
  it('lists the visible tools when the called tool is not visible', () => {
    const g = classifyFailure(failed('explore', {}, 'whatever', undefined, ['read', 'bash']));
    expect(g).toMatchObject({ category: 'unknown_tool', retryable: true });
    expect(g.nextAction).toBe('Use only the tools you can see: read, bash.');
    expect(g.suggestedTool).toBeUndefined();
  });

  it('is not retryable when no tool is visible', () => {
    const g = classifyFailure(failed('read', {}, 'unknown tool: "read"', undefined, []));
    expect(g).toMatchObject({ category: 'unknown_tool', retryable: false });
    expect(g.nextAction).toContain('answer the user directly');
  });

  it('falls back to the registry wording', () => {
    const g = classifyFailure(failed('read', {}, 'unknown tool: "read"; available tools: read'));
    expect(g.category).toBe('unknown_tool');
  });
});

describe('classifyFailure: paths', () => {
  it('maps the guard error type path_outside_root and suggests the same tool', () => {
    const g = classifyFailure(
      failed('read', { path: '../x' }, 'read: nope', { error_type: 'path_outside_root' }),
    );
    expect(g).toMatchObject({
      category: 'path_outside_root',
      retryable: true,
      suggestedTool: 'read',
    });
    expect(g.avoid).toContain('Do not try to get around the workspace boundary');
  });

  it("recognises the original's root wording without metadata", () => {
    const g = classifyFailure(
      failed('write', { path: '/etc/x' }, 'write path must stay under the configured root'),
    );
    expect(g.category).toBe('path_outside_root');
  });

  it('keeps protected paths apart and points to git through bash only when bash is visible', () => {
    const raw = 'protected path: ".git/config" is inside a .git directory';
    const withBash = classifyFailure(
      failed('write', { path: '.git/config' }, raw, { error_type: 'protected_path' }),
    );
    const withoutBash = classifyFailure(
      failed('write', { path: '.git/config' }, raw, { error_type: 'protected_path' }, ['write']),
    );
    expect(withBash.category).toBe('protected_path');
    expect(withBash.nextAction).toContain('git commands with bash');
    expect(withoutBash.nextAction).not.toContain('bash');
    expect(withoutBash.suggestedTool).toBeUndefined();
  });

  it('treats a malformed path as invalid arguments', () => {
    const g = classifyFailure(
      failed('read', { path: '' }, 'invalid path: the path is empty', {
        error_type: 'invalid_path',
      }),
    );
    expect(g.category).toBe('invalid_arguments');
  });
});

describe('classifyFailure: read_path_not_found', () => {
  const raw = 'read path does not exist: src/lib/missing.ts';

  it('suggests listing the parent directory with bash when bash is visible', () => {
    const g = classifyFailure(
      failed('read', { path: 'src/lib/missing.ts' }, raw, { error_type: 'not_found' }),
    );
    expect(g).toMatchObject({ category: 'read_path_not_found', suggestedTool: 'bash' });
    expect(g.nextAction).toContain('`ls src/lib`');
  });

  it('lists the workdir for a bare file name and quotes a parent with spaces', () => {
    const bare = classifyFailure(
      failed('read', { path: 'a.txt' }, raw, { error_type: 'not_found' }),
    );
    const spaced = classifyFailure(
      failed('read', { path: "my dir/it's.txt" }, raw, { error_type: 'not_found' }),
    );
    expect(bare.nextAction).toContain('`ls .`');
    expect(spaced.nextAction).toContain("`ls 'my dir'`");
  });

  it('never suggests bash or ls when bash is hidden', () => {
    const g = classifyFailure(
      failed('read', { path: 'src/missing.ts' }, raw, { error_type: 'not_found' }, ['read']),
    );
    expect(g.category).toBe('read_path_not_found');
    expect(g.suggestedTool).toBeUndefined();
    for (const text of [g.summary, g.nextAction, g.avoid]) {
      expect(text).not.toMatch(/\bls\b/);
      expect(text).not.toContain('bash');
    }
    expect(g.nextAction).toContain('ask the user');
  });

  it("recognises the original's wording without metadata", () => {
    expect(classifyFailure(failed('read', { path: 'a' }, raw)).category).toBe(
      'read_path_not_found',
    );
  });
});

describe('classifyFailure: edit', () => {
  it('suggests reading first when old_text is not found and read is visible', () => {
    const g = classifyFailure(
      failed('edit', { path: 'a.ts' }, 'no match', { error_type: 'edit_old_text_not_found' }),
    );
    expect(g).toMatchObject({ category: 'edit_old_text_not_found', suggestedTool: 'read' });
    expect(g.nextAction).toContain('Call read on a.ts');
  });

  it('does not mention read when read is hidden', () => {
    const g = classifyFailure(
      failed('edit', { path: 'a.ts' }, 'edit could not find old_text', undefined, ['edit']),
    );
    expect(g).toMatchObject({ category: 'edit_old_text_not_found', suggestedTool: 'edit' });
    expect(g.nextAction).not.toMatch(/\bread\b/i);
  });

  it('asks for a longer old_text or replace_all on multiple matches', () => {
    const fromMetadata = classifyFailure(
      failed('edit', { path: 'a.ts' }, 'x', { error_type: 'edit_multiple_matches' }),
    );
    const fromText = classifyFailure(
      failed('edit', { path: 'a.ts' }, 'edit found multiple matches for old_text'),
    );
    expect(fromMetadata.category).toBe('edit_multiple_matches');
    expect(fromText.category).toBe('edit_multiple_matches');
    expect(fromMetadata.nextAction).toContain('replace_all');
  });
});

describe('classifyFailure: file_not_read', () => {
  it('asks to read the file first when edit or write refuse an unread or changed file', () => {
    for (const type of ['file_not_read', 'file_modified', 'file_modified_since_read']) {
      const g = classifyFailure(
        failed('write', { path: 'src/a.ts' }, 'write refused', { error_type: type }),
      );
      expect(g).toMatchObject({
        category: 'file_not_read',
        suggestedTool: 'read',
        retryable: true,
      });
      expect(g.nextAction).toContain('Call read on src/a.ts');
    }
  });

  it('does not point to read when read is hidden', () => {
    const g = classifyFailure(
      failed('edit', { path: 'a' }, 'edit refused', { error_type: 'file_not_read' }, ['edit']),
    );
    expect(g).toMatchObject({ category: 'file_not_read', retryable: false });
    expect(g.suggestedTool).toBeUndefined();
    expect(g.nextAction).toContain('tell the user');
  });
});

describe('classifyFailure: bash', () => {
  const timeout = { error_type: 'bash_timeout', timed_out: true };

  it('advises backgrounding a service with a log file', () => {
    const g = classifyFailure(
      failed('bash', { command: 'cd web && npm run dev' }, 'timed out after 120s', timeout),
    );
    expect(g).toMatchObject({ category: 'bash_timeout_service', suggestedTool: 'bash' });
    expect(g.nextAction).toContain('> service.log 2>&1 &');
  });

  it('recognises a service from timed_out metadata alone', () => {
    const g = classifyFailure(
      failed('bash', { command: 'python -m http.server 8000' }, 'killed', { timed_out: true }),
    );
    expect(g.category).toBe('bash_timeout_service');
  });

  it('tells the model to narrow tests instead of backgrounding them', () => {
    const g = classifyFailure(failed('bash', { command: 'pnpm test' }, 'timed out', timeout));
    expect(g.category).toBe('bash_timeout');
    expect(g.nextAction).toContain('one test file');
    expect(g.avoid).toContain('Do not move tests or builds into the background');
  });

  it('does not mistake vitest for the vite dev server', () => {
    const g = classifyFailure(failed('bash', { command: 'npx vitest run' }, 'x', timeout));
    expect(g.category).toBe('bash_timeout');
  });

  it('gives generic narrowing advice for other timeouts, also from the wording', () => {
    const g = classifyFailure(
      failed('bash', { command: 'find / -name x' }, 'error=command timed out'),
    );
    expect(g.category).toBe('bash_timeout');
    expect(g.nextAction).toContain('timeout_seconds');
  });

  it('classifies a non-zero exit and mentions truncated output', () => {
    const plain = classifyFailure(
      failed('bash', { command: 'false' }, 'exit_code=1', { error_type: 'bash_command_failed' }),
    );
    const truncated = classifyFailure(
      failed('bash', { command: 'make' }, 'exit code 2', { stdout_truncated: true }),
    );
    expect(plain.category).toBe('bash_command_failed');
    expect(plain.nextAction).not.toContain('truncated');
    expect(truncated.category).toBe('bash_command_failed');
    expect(truncated.nextAction).toContain('The output was truncated');
  });

  it("reads truncation from the bash tool's status line when metadata lacks it", () => {
    const g = classifyFailure(
      failed(
        'bash',
        { command: 'make' },
        'exit_code=2 stdout_truncated=true stderr_truncated=false',
      ),
    );
    expect(g.nextAction).toContain('The output was truncated');
  });
});

describe('classifyFailure: arguments and everything else', () => {
  it('maps the registry invalid_arguments type', () => {
    const g = classifyFailure(
      failed('read', {}, 'failed to parse tool arguments: path: Required', {
        error_type: 'invalid_arguments',
      }),
    );
    expect(g).toMatchObject({ category: 'invalid_arguments', suggestedTool: 'read' });
  });

  it("falls back to the original's 'requires'/'invalid' wording", () => {
    expect(classifyFailure(failed('write', {}, "write tool requires a 'path'")).category).toBe(
      'invalid_arguments',
    );
  });

  it('calls anything unrecognised an execution error', () => {
    const g = classifyFailure(failed('read', { path: 'a' }, 'EIO: i/o error', { error_type: 'x' }));
    expect(g).toMatchObject({ category: 'execution_error', retryable: true });
  });
});

describe('renderFailure', () => {
  const guidance = {
    category: 'execution_error' as const,
    summary: 'S',
    nextAction: 'N',
    avoid: 'A',
    retryable: true,
  };

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
  it('keeps the tool metadata, records the category, and keeps the tool error type apart', () => {
    const { output } = translateFailure(
      failed('read', { path: 'a' }, 'read path does not exist: a', {
        error_type: 'not_found',
        size: 3,
      }),
      1,
    );
    expect(output).toMatchObject({
      isError: true,
      metadata: {
        is_error: true,
        error_type: 'read_path_not_found',
        tool_error_type: 'not_found',
        retryable: true,
        attempt: 1,
        suggested_tool: 'bash',
        size: 3,
      },
    });
    expect(output.content.startsWith('Tool failed: the file to read does not exist')).toBe(true);
  });

  it('sets no suggested_tool when there is none', () => {
    const { output } = translateFailure(
      failed('read', { path: 'a' }, 'read path does not exist: a', { suggested_tool: 'x' }, [
        'read',
      ]),
      1,
    );
    expect(output.metadata).not.toHaveProperty('suggested_tool');
    expect(output.metadata).not.toHaveProperty('tool_error_type');
  });
});
