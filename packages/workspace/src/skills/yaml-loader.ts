/** The `yaml` package's namespace, as {@link loadYaml} resolves it. */
export type YamlModule = typeof import('yaml');

let pending: Promise<YamlModule> | undefined;

/**
 * The `yaml` package, imported on first use and cached. Only a SKILL.md that has a frontmatter block
 * needs it, so a run in a workdir without skills never loads the parser. A failed import is not
 * cached, so a later call tries again.
 *
 * @example
 * const { parseDocument } = await loadYaml();
 */
export function loadYaml(): Promise<YamlModule> {
  pending ??= import('yaml').catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

/**
 * True once {@link loadYaml} has been asked for the parser in this module instance: lets tests
 * prove that a run without skill frontmatter leaves `yaml` unloaded.
 *
 * @example
 * yamlRequested(); // false until a frontmatter block is parsed
 */
export function yamlRequested(): boolean {
  return pending !== undefined;
}
