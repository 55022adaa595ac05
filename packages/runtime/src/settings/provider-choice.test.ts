import { ConfigurationError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.js';
import { chooseProvider, defaultModel, requireProviderKey } from './provider-choice.js';

function settingsFor(env: Record<string, string>) {
  return loadSettings({ env, cwd: '/w', homeDir: '/h' });
}

describe('chooseProvider', () => {
  it('auto picks openai when an OpenAI key is set, naming the variable', () => {
    expect(chooseProvider(settingsFor({ OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'a' }))).toEqual(
      {
        name: 'openai',
        reason: 'auto: OPENAI_API_KEY is set',
      },
    );
    expect(chooseProvider(settingsFor({ OPENAI_KEY: 'sk-1' })).reason).toBe(
      'auto: OPENAI_KEY is set',
    );
  });

  it('auto picks claude when only an Anthropic key is set', () => {
    expect(chooseProvider(settingsFor({ ANTHROPIC_API_KEY: 'a' }))).toEqual({
      name: 'claude',
      reason: 'auto: ANTHROPIC_API_KEY is set',
    });
    expect(chooseProvider(settingsFor({ CLAUDE_KEY: 'a' })).reason).toBe('auto: CLAUDE_KEY is set');
  });

  it('auto falls back to echo when no key is configured and says so', () => {
    expect(chooseProvider(settingsFor({ OPENAI_API_KEY: '  ' }))).toEqual({
      name: 'echo',
      reason: 'auto: no OPENAI_API_KEY or ANTHROPIC_API_KEY configured, using the echo provider',
    });
  });

  it.each([
    ['openai', 'openai'],
    ['claude', 'claude'],
    ['anthropic', 'claude'],
    ['echo', 'echo'],
  ] as const)('an explicit TINY_CLAW_PROVIDER=%s selects %s', (setting, name) => {
    expect(
      chooseProvider(settingsFor({ TINY_CLAW_PROVIDER: setting, OPENAI_API_KEY: 'k' })),
    ).toEqual({ name, reason: `explicit: TINY_CLAW_PROVIDER=${setting}` });
  });

  it('an explicit scripted provider is chosen even when keys are set', () => {
    const settings = settingsFor({
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: 's.json',
      OPENAI_API_KEY: 'k',
    });
    expect(chooseProvider(settings).name).toBe('scripted');
  });
});

describe('defaultModel', () => {
  it.each([
    ['openai', 'gpt-5.4'],
    ['claude', 'claude-sonnet-4-20250514'],
    ['echo', 'echo'],
    ['scripted', 'scripted'],
  ] as const)('the default model of %s is %s', (name, model) => {
    expect(defaultModel(name)).toBe(model);
  });
});

describe('requireProviderKey', () => {
  it('rejects an explicit openai without a key, listing the aliases', () => {
    const settings = settingsFor({ TINY_CLAW_PROVIDER: 'openai' });
    expect(() => requireProviderKey(settings, 'openai')).toThrow(ConfigurationError);
    expect(() => requireProviderKey(settings, 'openai')).toThrow(
      'OPENAI_API_KEY is required when TINY_CLAW_PROVIDER=openai (aliases: OPENAI_KEY, TINY_CLAW_OPENAI_API_KEY).',
    );
  });

  it('rejects an explicit anthropic without a key, naming the setting as written', () => {
    const settings = settingsFor({ TINY_CLAW_PROVIDER: 'anthropic' });
    expect(() => requireProviderKey(settings, chooseProvider(settings).name)).toThrow(
      'ANTHROPIC_API_KEY is required when TINY_CLAW_PROVIDER=anthropic (aliases: CLAUDE_KEY, CLAUDE_API_KEY, TINY_CLAW_CLAUDE_API_KEY).',
    );
  });

  it('accepts a key from an alias', () => {
    const settings = settingsFor({ TINY_CLAW_PROVIDER: 'claude', TINY_CLAW_CLAUDE_API_KEY: 'a' });
    expect(() => requireProviderKey(settings, 'claude')).not.toThrow();
  });

  it('never asks echo or scripted for a key', () => {
    const settings = settingsFor({});
    expect(() => requireProviderKey(settings, 'echo')).not.toThrow();
    expect(() => requireProviderKey(settings, 'scripted')).not.toThrow();
  });
});
