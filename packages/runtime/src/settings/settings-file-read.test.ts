import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readSettingsFile,
  SETTINGS_FILE_MAX_BYTES,
  SettingsFileError,
} from './settings-file-read.js';

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.env': 'A=1\n' });
});
afterEach(() => ws.cleanup());

async function refusal(path: string): Promise<SettingsFileError> {
  const error = await readSettingsFile(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SettingsFileError);
  return error as SettingsFileError;
}

describe('readSettingsFile reads only a regular file of at most 1 MiB', () => {
  it('reads a regular file, also through a symlink, and returns undefined when there is none', async () => {
    await symlink(ws.path('a.env'), ws.path('link.env'));
    expect((await readSettingsFile(ws.path('a.env')))?.toString()).toBe('A=1\n');
    expect((await readSettingsFile(ws.path('link.env')))?.toString()).toBe('A=1\n');
    expect(await readSettingsFile(ws.path('missing.env'))).toBeUndefined();
    expect(await readSettingsFile(ws.path('a.env/below'))).toBeUndefined();
  });

  it('refuses a named pipe at once, without waiting for a writer', async () => {
    execFileSync('mkfifo', [ws.path('pipe.env')]);
    const error = await refusal(ws.path('pipe.env'));
    expect(error.path).toBe(ws.path('pipe.env'));
    expect(error.reason).toBe(
      'it is a named pipe (FIFO), not a regular file; settings are read only from a regular file: name the file itself',
    );
  });

  it('refuses a device and a directory, naming what they are', async () => {
    expect((await refusal('/dev/zero')).reason).toContain('a character device');
    await mkdir(ws.path('dir.env'));
    expect((await refusal(ws.path('dir.env'))).message).toBe(
      `Cannot use the settings file ${ws.path('dir.env')}: it is a directory, not a regular file; settings are read only from a regular file: name the file itself.`,
    );
  });

  it('refuses a file over the limit and reads one exactly at it', async () => {
    await ws.write('over.env', 'x'.repeat(SETTINGS_FILE_MAX_BYTES + 1));
    expect((await refusal(ws.path('over.env'))).reason).toContain(
      `it is ${SETTINGS_FILE_MAX_BYTES + 1} bytes, over the 1 MiB (1048576-byte) limit`,
    );
    await ws.write('full.env', 'x'.repeat(SETTINGS_FILE_MAX_BYTES));
    expect((await readSettingsFile(ws.path('full.env')))?.length).toBe(SETTINGS_FILE_MAX_BYTES);
  });
});
