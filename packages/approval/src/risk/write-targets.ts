import { type OptionSpec, type SplitArguments, splitArguments } from './shell/option-scan.js';
import { literalWord, type ShellWord } from './shell/shell-word.js';

type TargetsOf = (args: readonly ShellWord[]) => ShellWord[];

function optionValues(split: SplitArguments, names: readonly string[]): ShellWord[] {
  return split.options
    .filter((option) => names.includes(option.name))
    .map((option) =>
      option.value === null
        ? { text: option.name, value: null, prefix: '', expands: false }
        : literalWord(option.value),
    );
}

// Every operand is written (deleted, created, truncated, changed).
function allOperands(spec: OptionSpec = {}): TargetsOf {
  return (args) => [...splitArguments(args, spec).operands];
}

// Operands after the first, which is not a path (chmod's mode, chown's owner).
function operandsAfterFirst(spec: OptionSpec = {}): TargetsOf {
  return (args) => {
    const split = splitArguments(args, spec);
    const reference = split.options.some((option) => option.name === '--reference');
    return split.operands.slice(reference ? 0 : 1);
  };
}

// cp, install, ln: the last operand, or the `-t` directory.
function destination(spec: OptionSpec): TargetsOf {
  return (args) => {
    const split = splitArguments(args, spec);
    const directories = optionValues(split, ['-t', '--target-directory']);
    if (directories.length > 0) return directories;
    return split.operands.length >= 2 ? split.operands.slice(-1) : [];
  };
}

function valuesOf(names: readonly string[], spec: OptionSpec): TargetsOf {
  return (args) => optionValues(splitArguments(args, spec), names);
}

const FIND_WRITERS = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

function findTargets(args: readonly ShellWord[]): ShellWord[] {
  const targets: ShellWord[] = [];
  const start = args.findIndex((arg) => arg.value === null || /^[-(!)]/.test(arg.value));
  const roots = args.slice(0, start < 0 ? args.length : start);
  args.forEach((arg, index) => {
    const next = args[index + 1];
    if (FIND_WRITERS.has(arg.value ?? '') && next !== undefined) targets.push(next);
    // -delete removes what it finds under each starting point.
    if (arg.value === '-delete') targets.push(...(roots.length > 0 ? roots : [literalWord('.')]));
  });
  return targets;
}

function ddTargets(args: readonly ShellWord[]): ShellWord[] {
  return args.flatMap((arg) => {
    if (arg.value !== null)
      return arg.value.startsWith('of=') ? [literalWord(arg.value.slice(3))] : [];
    return arg.prefix.startsWith('of=') ? [{ ...arg, prefix: arg.prefix.slice(3) }] : [];
  });
}

function sedTargets(args: readonly ShellWord[]): ShellWord[] {
  const spec = { valued: ['-e', '--expression', '-f', '--file', '-l'] };
  const split = splitArguments(args, spec);
  if (!split.options.some((option) => option.name === '-i' || option.name === '--in-place'))
    return [];
  const scripted = split.options.some((option) =>
    ['-e', '--expression', '-f', '--file'].includes(option.name),
  );
  return split.operands.slice(scripted ? 0 : 1);
}

const COPY_SPEC: OptionSpec = { valued: ['-t', '--target-directory', '-S', '--suffix'] };

/**
 * For commands that write files, which of their words name what they write. Used to refuse
 * writes into `.git`, protected paths and outside the workdir, whichever command does them.
 *
 * @example
 * WRITE_TARGETS.tee?.(words('-a log.txt')); // [log.txt]
 */
export const WRITE_TARGETS: Readonly<Record<string, TargetsOf>> = {
  tee: allOperands(),
  cp: destination(COPY_SPEC),
  install: destination({
    valued: [...(COPY_SPEC.valued ?? []), '-m', '--mode', '-o', '--owner', '-g', '--group'],
  }),
  ln: destination(COPY_SPEC),
  // mv removes its sources too, and writes into its destination (`-t` included).
  mv: (args) => {
    const split = splitArguments(args, COPY_SPEC);
    return [...split.operands, ...optionValues(split, ['-t', '--target-directory'])];
  },
  rm: allOperands(),
  rmdir: allOperands(),
  unlink: allOperands(),
  shred: allOperands({ valued: ['-n', '--iterations', '-s', '--size'] }),
  touch: allOperands({ valued: ['-d', '--date', '-r', '--reference', '-t'] }),
  mkdir: allOperands({ valued: ['-m', '--mode'] }),
  truncate: allOperands({ valued: ['-s', '--size', '-r', '--reference'] }),
  chmod: operandsAfterFirst(),
  chown: operandsAfterFirst(),
  chgrp: operandsAfterFirst(),
  dd: ddTargets,
  mkfs: allOperands(),
  sed: sedTargets,
  find: findTargets,
  sort: valuesOf(['-o', '--output'], { valued: ['-o', '--output', '-k', '-t', '-S', '-T'] }),
  base64: valuesOf(['-o', '--output'], { valued: ['-o', '--output', '-w', '-i'] }),
  tree: valuesOf(['-o'], { valued: ['-o', '-L', '-P', '-I'] }),
};
