import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Core is the part every embedder installs. It must not know the tools other packages build
// (tool-specific behaviour travels as a typed failure kind and the tool's own advice), any model
// vendor (price tables and model defaults live with their provider package) nor any chat platform
// (a front end's sessions and where a run was asked for are opaque to core). Tests may name
// anything; shipped source may not.
const root = fileURLToPath(new URL('.', import.meta.url));

/** The names of the tools the tools and subagent packages provide. */
const TOOL_NAMES = ['read', 'write', 'edit', 'bash', 'explore'];

/**
 * The secret rules recognise the credential formats of many services (cloud, code hosting, chat,
 * model vendors) so they can be redacted: that is data about secrets, not knowledge of a vendor.
 */
const SECRET_FORMATS = 'utils/secret-rules.ts';

const RULES: ReadonlyArray<{ what: string; pattern: RegExp; except?: string }> = [
  // A tool name as a string literal is how code would branch on it; the words `read`, `write` and
  // `edit` are also ordinary English, so only their quoted forms count.
  {
    what: 'a tool name as a string',
    pattern: new RegExp(`['"\`](${TOOL_NAMES.join('|')})['"\`:]`),
  },
  // `bash` and `explore` are not ordinary words in this code base: any mention is a tool.
  { what: 'a tool name', pattern: /\b(bash|explore)\b/i },
  {
    what: 'a vendor or model name',
    pattern: /\b(openai|anthropic|claude|gpt-\d|gpt\b|sonnet|opus|haiku|gemini|o[134]-mini)\b/i,
    except: SECRET_FORMATS,
  },
  {
    what: 'a chat platform',
    pattern: /\b(feishu|lark|slack|discord|telegram)\b/i,
    except: SECRET_FORMATS,
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('core stays generic', () => {
  it('names no tool, no model vendor and no chat platform anywhere in its shipped source', () => {
    const findings: string[] = [];
    for (const file of sourceFiles(root)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const rule of RULES) {
            if (rule.except === relative(root, file)) continue;
            if (rule.pattern.test(line)) {
              findings.push(`${relative(root, file)}:${index + 1} ${rule.what}: ${line.trim()}`);
            }
          }
        });
    }
    expect(findings).toEqual([]);
  });

  it('would catch a tool name or a vendor model if one crept in', () => {
    const hits = (line: string) => RULES.some((rule) => rule.pattern.test(line));
    expect(hits(`if (call.name === 'edit') return;`)).toBe(true);
    expect(hits('suggest running it through bash')).toBe(true);
    expect(hits(`'gpt-5.4': { inputPerMTok: 2.5 },`)).toBe(true);
    expect(hits(`export const sources = ['cli', 'feishu'];`)).toBe(true);
    expect(hits('// read the file and write it back')).toBe(false);
  });
});
