import path from 'node:path';
import type { ToolCall } from '../messages.js';
import type { ToolOutput } from '../tool.js';
import type { ToolMetadata } from '../tool-metadata.js';
import { guidanceLabels, guidanceText } from './strings.js';

/**
 * Failure categories of the original's tool-error SOP, plus two it could not express:
 * `protected_path` (writes into `.git` or the state dir) and `file_not_read` (edit/write refused
 * because the file was not read in this run, or changed since).
 *
 * @example
 * const category: FailureCategory = 'read_path_not_found';
 */
export type FailureCategory =
  | 'unknown_tool'
  | 'path_outside_root'
  | 'protected_path'
  | 'file_not_read'
  | 'read_path_not_found'
  | 'edit_old_text_not_found'
  | 'edit_multiple_matches'
  | 'bash_timeout_service'
  | 'bash_timeout'
  | 'bash_command_failed'
  | 'invalid_arguments'
  | 'execution_error';

/**
 * What the model should do about one failed call.
 *
 * @example
 * const g: FailureGuidance = classifyFailure({ call, output, visibleTools: ['read'] });
 * g.category; // 'read_path_not_found'
 */
export interface FailureGuidance {
  category: FailureCategory;
  summary: string;
  nextAction: string;
  avoid: string;
  retryable: boolean;
  /** The tool the model should call next, when there is an obvious one. */
  suggestedTool?: string;
}

/**
 * A failed call as the executor saw it.
 *
 * @example
 * const input: FailedCall = { call, output: { content: 'boom', isError: true }, visibleTools: [] };
 */
export interface FailedCall {
  call: ToolCall;
  output: ToolOutput;
  visibleTools: readonly string[];
}

// Matched on ` <lowercased command> ` so a marker only hits whole words (`vite` but not `vitest`).
const SERVICE_MARKERS = [
  ' serve ',
  ' runserver ',
  ' uvicorn ',
  ' gunicorn ',
  ' flask run ',
  ' npm run dev ',
  ' npm start ',
  ' pnpm dev ',
  ' pnpm run dev ',
  ' pnpm start ',
  ' yarn dev ',
  ' yarn start ',
  ' next dev ',
  ' vite ',
  ' nodemon ',
  ' python -m http.server ',
  ' python3 -m http.server ',
  ' http-server ',
  ' tail -f ',
  ' watch ',
  ' docker compose up ',
];

const TEST_OR_BUILD_MARKERS = [
  ' pytest',
  ' ruff',
  ' mypy',
  ' test ',
  ' tests/',
  ' build ',
  ' compile ',
  ' npm test',
  ' pnpm test',
  ' yarn test',
  ' vitest',
  ' jest',
  ' tsc ',
  ' make ',
];

/** Error types our tools set that already name an SOP category. */
const DIRECT_CATEGORIES: Readonly<Record<string, FailureCategory>> = {
  unknown_tool: 'unknown_tool',
  path_outside_root: 'path_outside_root',
  protected_path: 'protected_path',
  file_not_read: 'file_not_read',
  file_modified: 'file_not_read',
  file_modified_since_read: 'file_not_read',
  invalid_path: 'invalid_arguments',
  invalid_arguments: 'invalid_arguments',
  edit_old_text_not_found: 'edit_old_text_not_found',
  edit_multiple_matches: 'edit_multiple_matches',
  bash_command_failed: 'bash_command_failed',
  execution_error: 'execution_error',
};

function stringArg(call: ToolCall, name: string): string | undefined {
  const value = call.arguments[name];
  return typeof value === 'string' ? value : undefined;
}

function padded(command: string): string {
  return ` ${command.toLowerCase().replace(/\s+/g, ' ')} `;
}

/** Category from the tool's own `error_type`, which is more reliable than its wording. */
function categoryFromMetadata(call: ToolCall, metadata: ToolMetadata): FailureCategory | undefined {
  const type = typeof metadata.error_type === 'string' ? metadata.error_type : undefined;
  if (type === 'not_found' && call.name === 'read') return 'read_path_not_found';
  if (type === 'bash_timeout' || (call.name === 'bash' && metadata.timed_out === true)) {
    return timeoutCategory(stringArg(call, 'command') ?? '');
  }
  return type === undefined ? undefined : DIRECT_CATEGORIES[type];
}

/** The original's wording-based classification, for tools that set no `error_type`. */
function categoryFromText(call: ToolCall, raw: string): FailureCategory {
  const text = raw.toLowerCase();
  if (text.includes('unknown tool:')) return 'unknown_tool';
  if (
    text.includes('must stay under the configured root') ||
    text.includes('must stay under the workdir')
  ) {
    return 'path_outside_root';
  }
  if (call.name === 'read' && text.includes('path does not exist')) return 'read_path_not_found';
  if (call.name === 'edit' && text.includes('could not find old_text')) {
    return 'edit_old_text_not_found';
  }
  if (call.name === 'edit' && text.includes('found multiple matches')) {
    return 'edit_multiple_matches';
  }
  if (call.name === 'bash' && text.includes('timed out')) {
    return timeoutCategory(stringArg(call, 'command') ?? '');
  }
  if (call.name === 'bash' && /exit[_ ]code/.test(text)) return 'bash_command_failed';
  if (text.includes('requires') || text.includes('invalid')) return 'invalid_arguments';
  return 'execution_error';
}

function timeoutCategory(command: string): FailureCategory {
  const haystack = padded(command);
  return SERVICE_MARKERS.some((marker) => haystack.includes(marker))
    ? 'bash_timeout_service'
    : 'bash_timeout';
}

function wasTruncated(metadata: ToolMetadata, raw: string): boolean {
  return (
    ['truncated', 'stdout_truncated', 'stderr_truncated', 'output_truncated'].some(
      (key) => metadata[key] === true,
    ) || /\b(stdout|stderr)_truncated=true\b/i.test(raw)
  );
}

/**
 * Classify a failed call into an SOP category with advice that only names tools the model can
 * see. The tool's `metadata.error_type` wins; the original's text matching is the fallback.
 *
 * @example
 * classifyFailure({
 *   call: { id: '1', name: 'read', arguments: { path: 'src/missing.ts' } },
 *   output: { content: 'read path does not exist: src/missing.ts', isError: true },
 *   visibleTools: ['bash', 'read'],
 * }).nextAction; // 'Check what exists first: call bash with `ls src`, …'
 */
export function classifyFailure(failed: FailedCall): FailureGuidance {
  const { call, output, visibleTools } = failed;
  const visible = (name: string) => visibleTools.includes(name);
  const metadata = output.metadata ?? {};
  const category = !visible(call.name)
    ? 'unknown_tool'
    : (categoryFromMetadata(call, metadata) ?? categoryFromText(call, output.content));
  const same = { retryable: true, suggestedTool: call.name };
  switch (category) {
    case 'unknown_tool':
      return {
        category,
        summary: guidanceText.unknownTool.summary(call.name),
        nextAction: guidanceText.unknownTool.next(visibleTools),
        avoid: guidanceText.unknownTool.avoid,
        retryable: visibleTools.length > 0,
      };
    case 'path_outside_root':
      return {
        category,
        summary: guidanceText.pathOutsideRoot.summary,
        nextAction: guidanceText.pathOutsideRoot.next,
        avoid: guidanceText.pathOutsideRoot.avoid,
        ...same,
      };
    case 'protected_path':
      return {
        category,
        summary: guidanceText.protectedPath.summary,
        nextAction: guidanceText.protectedPath.next(visible('bash')),
        avoid: guidanceText.protectedPath.avoid,
        retryable: true,
      };
    case 'file_not_read': {
      const readVisible = visible('read');
      const text = guidanceText.fileNotRead;
      return {
        category,
        summary: text.summary,
        nextAction: text.next(readVisible, stringArg(call, 'path') ?? 'the file'),
        avoid: text.avoid,
        retryable: readVisible,
        ...(readVisible ? { suggestedTool: 'read' } : {}),
      };
    }
    case 'read_path_not_found': {
      const text = guidanceText.readPathNotFound;
      const base = { category, summary: text.summary, avoid: text.avoid };
      if (!visible('bash')) return { ...base, nextAction: text.nextWithoutBash, retryable: true };
      const parent = path.posix.dirname((stringArg(call, 'path') ?? '').trim() || '.');
      return {
        ...base,
        nextAction: text.nextWithBash(parent),
        retryable: true,
        suggestedTool: 'bash',
      };
    }
    case 'edit_old_text_not_found':
    case 'edit_multiple_matches': {
      const readVisible = visible('read');
      const file = stringArg(call, 'path') ?? 'the file';
      const text =
        category === 'edit_old_text_not_found'
          ? {
              ...guidanceText.editOldTextNotFound,
              nextAction: guidanceText.editOldTextNotFound.next(readVisible, file),
            }
          : {
              ...guidanceText.editMultipleMatches,
              nextAction: guidanceText.editMultipleMatches.next(readVisible),
            };
      return {
        category,
        summary: text.summary,
        nextAction: text.nextAction,
        avoid: text.avoid,
        retryable: true,
        suggestedTool: readVisible ? 'read' : call.name,
      };
    }
    case 'bash_timeout_service':
      return {
        category,
        summary: guidanceText.bashTimeoutService.summary,
        nextAction: guidanceText.bashTimeoutService.next(stringArg(call, 'command') ?? ''),
        avoid: guidanceText.bashTimeoutService.avoid,
        ...same,
      };
    case 'bash_timeout': {
      const isTestOrBuild = TEST_OR_BUILD_MARKERS.some((marker) =>
        padded(stringArg(call, 'command') ?? '').includes(marker),
      );
      const text = isTestOrBuild ? guidanceText.bashTimeoutTests : guidanceText.bashTimeoutGeneric;
      return { category, summary: text.summary, nextAction: text.next, avoid: text.avoid, ...same };
    }
    case 'bash_command_failed': {
      const text = guidanceText.bashCommandFailed;
      const truncated = wasTruncated(metadata, output.content) ? text.truncated : '';
      return {
        category,
        summary: text.summary,
        nextAction: `${text.next}${truncated}`,
        avoid: text.avoid,
        ...same,
      };
    }
    case 'invalid_arguments':
    case 'execution_error': {
      const text =
        category === 'invalid_arguments'
          ? guidanceText.invalidArguments
          : guidanceText.executionError;
      return { category, summary: text.summary, nextAction: text.next, avoid: text.avoid, ...same };
    }
  }
}

/**
 * Render the observation the model reads: summary, raw error, next step, what to avoid, the
 * attempt number and, from the second failure of the same call on, a repeat warning.
 *
 * @example
 * renderFailure(guidance, 'read path does not exist: a.txt', 2);
 * // 'Tool failed: the file to read does not exist\n\nError:\nread path does not exist: a.txt\n\n…'
 */
export function renderFailure(
  guidance: FailureGuidance,
  rawError: string,
  attempt: number,
): string {
  const error = rawError.trim() || guidanceLabels.emptyError;
  const parts = [
    `${guidanceLabels.failed} ${guidance.summary}`,
    `${guidanceLabels.error}\n${error}`,
    `${guidanceLabels.next}\n${guidance.nextAction}`,
    `${guidanceLabels.avoid}\n${guidance.avoid}`,
    `${guidanceLabels.attempt} ${attempt}`,
  ];
  if (attempt >= 2) parts.push(`${guidanceLabels.repeat}\n${guidanceLabels.repeatBody}`);
  return parts.join('\n\n');
}

/**
 * Turn a failed tool output into the SOP observation. The tool's other metadata is kept; its own
 * `error_type` moves to `tool_error_type` when the category differs, so nothing is lost.
 *
 * @example
 * const { output, guidance } = translateFailure({ call, output: raw, visibleTools }, 1);
 * output.metadata?.error_type; // 'read_path_not_found'
 */
export function translateFailure(
  failed: FailedCall,
  attempt: number,
): { output: ToolOutput; guidance: FailureGuidance } {
  const guidance = classifyFailure(failed);
  const original = failed.output.metadata ?? {};
  const metadata: ToolMetadata = {
    ...original,
    is_error: true,
    error_type: guidance.category,
    retryable: guidance.retryable,
    attempt,
  };
  if (typeof original.error_type === 'string' && original.error_type !== guidance.category) {
    metadata.tool_error_type = original.error_type;
  }
  if (guidance.suggestedTool !== undefined) metadata.suggested_tool = guidance.suggestedTool;
  else delete metadata.suggested_tool;
  return {
    output: {
      content: renderFailure(guidance, failed.output.content, attempt),
      isError: true,
      metadata,
    },
    guidance,
  };
}
