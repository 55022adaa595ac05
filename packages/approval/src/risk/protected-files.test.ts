import { describe, expect, it } from 'vitest';
import { isSecretSegment, segmentWords } from './protected-files.js';

describe('secret path segments', () => {
  it('splits segments into words at punctuation and case changes', () => {
    expect(segmentWords('apiKey_v2.json')).toEqual(['api', 'key', 'v2', 'json']);
  });

  it('finds secret and key as whole words only', () => {
    expect(
      ['secrets', 'api_key.txt', 'awsKey.json', '.env.local', 'id_rsa'].map(isSecretSegment),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['monkey.ts', 'keyboard.ts', 'secretary.md', 'environment.ts'].map(isSecretSegment),
    ).toEqual([false, false, false, false]);
  });
});
