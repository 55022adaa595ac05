import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalWorld, createApprovalWorld, editJson } from './__fixtures__/approval-cli.js';

// A checkpoint holds the whole conversation of a paused run. Through the real binary: it lives
// only while its request can be decided, and what it keeps on disk is redacted.
const KEY = 'sk-proj-Zq8vN3xR5tW2yB7mK4pL9sD1fG6hJ0cA';

let world: ApprovalWorld;

beforeEach(async () => {
  world = await createApprovalWorld({
    'config.js': `module.exports = { apiKey: '${KEY}' };\n`,
  });
});
afterEach(() => world.cleanup());

const readConfigThenWriteEnv = [
  { tool_calls: [{ name: 'read', arguments: { path: 'config.js' } }] },
  { tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'MODE=dev\n' } }] },
];

function checkpointDir(result: RunResult): string {
  return join(world.stateDir, 'sessions', result.sessionKey, 'checkpoints');
}

async function checkpointsOf(result: RunResult): Promise<string[]> {
  return readdir(checkpointDir(result)).catch(() => []);
}

async function pause(): Promise<RunResult> {
  const { cli, result } = await world.run(readConfigThenWriteEnv);
  expect(cli.code, cli.stderr).toBe(4);
  expect(await checkpointsOf(result)).toEqual([`${result.checkpointId}.json`]);
  return result;
}

describe('the checkpoint of a paused run', () => {
  it('holds no raw secret a tool printed before the pause, and the run still resumes from it', async () => {
    const result = await pause();
    const text = await readFile(world.sessionFile(result, 'checkpoints'), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).toContain('[REDACTED:openai-api-key]');
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(await readFile(world.ws.path('.env'), 'utf8')).toBe('MODE=dev\n');
  });

  it('is deleted once the approved call has run', async () => {
    const result = await pause();
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code, approved.stderr).toBe(0);
    expect((await world.record(result.approvalId as string)).status).toBe('consumed');
    expect(await checkpointsOf(result)).toEqual([]);
  });

  it('is deleted once the call was rejected', async () => {
    const result = await pause();
    const rejected = await world.decide(['reject', result.approvalId as string, 'not now']);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(await checkpointsOf(result)).toEqual([]);
  });

  it('is deleted when a decision finds the request expired', async () => {
    const result = await pause();
    await editJson(world.sessionFile(result, 'approvals'), (record) => {
      record.expiresAt = record.createdAt;
    });
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('expired');
    expect(await checkpointsOf(result)).toEqual([]);
  });

  it('of an expired request is deleted by the next listing, which shows it as found and then records it expired', async () => {
    const result = await pause();
    await editJson(world.sessionFile(result, 'approvals'), (record) => {
      record.expiresAt = record.createdAt;
    });
    const listed = await world.cli(['approvals', 'list']);
    expect(listed.stdout).toMatch(/pending \(expired\)/);
    expect(await checkpointsOf(result)).toEqual([]);
    expect((await world.record(result.approvalId as string)).status).toBe('expired');
  });

  it('of an expired request is deleted when the session pauses again', async () => {
    const first = await pause();
    await editJson(world.sessionFile(first, 'approvals'), (record) => {
      record.expiresAt = record.createdAt;
    });
    const { result: second } = await world.run(readConfigThenWriteEnv);
    expect(second.stopReason).toBe('approval_required');
    expect(await checkpointsOf(first)).toEqual([`${second.checkpointId}.json`]);
    expect((await world.record(first.approvalId as string)).status).toBe('expired');
  });
});
