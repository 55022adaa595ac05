import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { metadataUses, type RetiredKeyAllowance, scanMetadataUses } from './typed-results.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

describe('results between packages are typed fields, never metadata keys', () => {
  it('no shipped source reads a metadata key or names a key of the old metadata protocol', () => {
    const found = scanMetadataUses(repoRoot).map(
      (use) => `${use.file}:${use.line}: ${use.rule} (${use.text})`,
    );
    expect(found, `use a typed field instead:\n${found.join('\n')}`).toEqual([]);
  });

  it('would catch a package branching on another one’s metadata', () => {
    const rules = (line: string, allowance: RetiredKeyAllowance = 'none') =>
      metadataUses(line, allowance).map((use) => use.rule);
    expect(rules('if (observation.metadata?.is_error === true) continue;')).toEqual([
      'reads a metadata key',
      'names a retired metadata key',
    ]);
    expect(rules("const kind = output.metadata.error_type ?? 'x';")).toEqual([
      'reads a metadata key',
      'names a retired metadata key',
    ]);
    expect(rules('const note = message.metadata?.[FOOTER_KEY];')).toEqual(['reads a metadata key']);
    expect(rules('doom_loop_detected: metadata.doom_loop_detected === true,')).toEqual([
      'reads a metadata key',
      'names a retired metadata key',
    ]);
    expect(rules("metadata: { error_type: 'denied', tool_policy: list },")).toEqual([
      'names a retired metadata key',
    ]);
    // A trace attribute in the tracing package is the trace format's own word, but reading it out
    // of a result's metadata is reading metadata all the same.
    expect(rules('is_error: observation.isError,', 'named')).toEqual([]);
    expect(rules('const metadata = observation.metadata ?? {};', 'named')).toEqual([
      'keeps another’s metadata record',
    ]);
    expect(rules('doom_loop_detected: metadata.doom_loop_detected === true,', 'named')).toEqual([
      'reads a metadata key',
    ]);
    expect(rules("const kind = metadata['error_type'];", 'named')).toEqual([
      'reads a metadata key',
    ]);
  });

  it('lets the reader of older saved states lift the retired keys', () => {
    const line = 'const { is_error: isError, ...metadata } = message.metadata;';
    expect(metadataUses(line, 'read')).toEqual([]);
    expect(
      metadataUses('else if (legacy !== undefined) metadata.is_error = legacy;', 'read'),
    ).toEqual([]);
    expect(
      metadataUses('else if (legacy !== undefined) metadata.is_error = legacy;', 'named'),
    ).toEqual([expect.objectContaining({ rule: 'reads a metadata key' })]);
  });

  it('lets a writer keep and pass on its own record', () => {
    const rules = (line: string) => metadataUses(line, 'none').map((use) => use.rule);
    expect(rules('if (result.signal) metadata.signal = result.signal;')).toEqual([]);
    expect(
      rules('const metadata: JsonObject = { ...output.metadata, tool_call_index: index };'),
    ).toEqual([]);
    expect(rules('redacted.metadata = redactJson(message.metadata) as JsonObject;')).toEqual([]);
    expect(rules('if (message.metadata !== undefined) {')).toEqual([]);
  });
});
