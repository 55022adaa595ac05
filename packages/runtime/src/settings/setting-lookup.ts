import type { SettingSource } from './settings-schema.js';

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
}

/**
 * Reads variables from the real environment and a `.env` map. Real environment variables win; the
 * `.env` map only fills names that are unset in the environment. A blank value counts as unset
 * unless `emptyIsValue` is true.
 *
 * @example
 * const lookup = new SettingLookup({ A: '' }, { A: 'from-file' });
 * lookup.get('A', false); // → { name: 'A', raw: 'from-file', source: '.env' }
 * lookup.get('A', true);  // → { name: 'A', raw: '', source: 'env' }
 */
export class SettingLookup {
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #dotenv: Readonly<Record<string, string | undefined>>;

  constructor(
    env: Readonly<Record<string, string | undefined>>,
    dotenv: Readonly<Record<string, string | undefined>> = {},
  ) {
    this.#env = env;
    this.#dotenv = dotenv;
  }

  /** The effective value of one variable name, or undefined when it is unset. */
  get(name: string, emptyIsValue: boolean): FoundSetting | undefined {
    const fromEnv = own(this.#env, name);
    if (isSet(fromEnv, emptyIsValue)) return { name, raw: fromEnv, source: 'env' };
    const fromFile = own(this.#dotenv, name);
    if (isSet(fromFile, emptyIsValue)) return { name, raw: fromFile, source: '.env' };
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
