import type { SettingFileSource, SettingSource } from './settings-schema.js';

/**
 * A variable that is set, with the name it was found under and where it came from.
 *
 * @example
 * const found: FoundSetting = { name: 'OPENAI_KEY', raw: 'sk-1', source: '.env' };
 */
export interface FoundSetting {
  readonly name: string;
  readonly raw: string;
  readonly source: Exclude<SettingSource, 'default'>;
  /** The settings file it was read from; absent for the real environment. */
  readonly file?: string;
}

/**
 * The variables of one settings file, already parsed, and which kind of source it is.
 *
 * @example
 * const file: SettingsFile = { source: 'user config', path: '/home/me/.config/tiny-claw/.env', values: { TINY_CLAW_MODEL: 'gpt-4.1' } };
 */
export interface SettingsFile {
  readonly source: SettingFileSource;
  /** Absolute path of the file, for messages. */
  readonly path: string;
  readonly values: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads variables from the real environment and settings files. The real environment wins; each
 * file only fills names that are unset in the environment and in every file before it. A blank
 * value counts as unset unless `emptyIsValue` is true.
 *
 * @example
 * const lookup = new SettingLookup({ A: '' }, [{ source: '.env', path: '/p/.env', values: { A: 'from-file' } }]);
 * lookup.get('A', false); // → { name: 'A', raw: 'from-file', source: '.env', file: '/p/.env' }
 * lookup.get('A', true);  // → { name: 'A', raw: '', source: 'env' }
 */
export class SettingLookup {
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #files: readonly SettingsFile[];

  /** `files` strongest first. */
  constructor(
    env: Readonly<Record<string, string | undefined>>,
    files: readonly SettingsFile[] = [],
  ) {
    this.#env = env;
    this.#files = files;
  }

  /** The effective value of one variable name, or undefined when it is unset. */
  get(name: string, emptyIsValue: boolean): FoundSetting | undefined {
    const fromEnv = own(this.#env, name);
    if (isSet(fromEnv, emptyIsValue)) return { name, raw: fromEnv, source: 'env' };
    for (const file of this.#files) {
      const fromFile = own(file.values, name);
      if (isSet(fromFile, emptyIsValue)) {
        return { name, raw: fromFile, source: file.source, file: file.path };
      }
    }
    return undefined;
  }

  /** The first of `names` that is set; names are tried in order, aliases after the canonical one. */
  first(names: readonly string[], emptyIsValue: boolean): FoundSetting | undefined {
    for (const name of names) {
      const found = this.get(name, emptyIsValue);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Where the effective value of `name` comes from. */
  sourceOf(name: string, emptyIsValue: boolean): SettingSource {
    return this.get(name, emptyIsValue)?.source ?? 'default';
  }
}

function own(values: Readonly<Record<string, string | undefined>>, name: string) {
  return Object.hasOwn(values, name) ? values[name] : undefined;
}

function isSet(value: string | undefined, emptyIsValue: boolean): value is string {
  if (value === undefined) return false;
  return emptyIsValue || value.trim() !== '';
}
