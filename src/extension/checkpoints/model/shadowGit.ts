/**
 * How the shadow repository is driven (pure): the `git` command lines, the environment that keeps
 * the user's own git configuration, hooks and repository out of it, and the parsing of what git
 * prints. The runner (`../gitRunner.ts`) only spawns what this says.
 */

/**
 * Settings given to every git command of the shadow repository, over any configuration git could
 * still find: no hooks run, no line-ending or filter conversion (checkpoints are byte-exact), no
 * automatic gc in the middle of a prompt (ours runs in the background), no fsmonitor daemon.
 */
const CONFIG: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'],
  ['core.autocrlf', 'false'],
  ['core.safecrlf', 'false'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.quotePath', 'false'],
  ['core.symlinks', 'true'],
  ['core.bigFileThreshold', '512m'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['advice.addEmbeddedRepo', 'false'],
  ['commit.gpgSign', 'false'],
  ['user.name', 'ACP Native'],
  ['user.email', 'checkpoints@acp-native.invalid'],
];

/** The arguments that put a command on the shadow repository of one workspace folder. */
export function gitArgs(gitDir: string, workTree: string, args: readonly string[]): string[] {
  return [...CONFIG.flatMap(([k, v]) => ['-c', `${k}=${v}`]), `--git-dir=${gitDir}`, `--work-tree=${workTree}`, ...args];
}

/**
 * The environment of a shadow git: the host's, without any GIT_* variable (a GIT_DIR or
 * GIT_INDEX_FILE the host was started with would aim git at the user's repository), with no system
 * or global configuration and HOME in our storage (no ~/.gitconfig, no credential helpers).
 */
export function gitEnv(hostEnv: Readonly<Record<string, string | undefined>>, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(hostEnv)) if (value !== undefined && !/^GIT_/i.test(key)) env[key] = value;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  };
}

/** `git --version` → [major, minor], or undefined when it is not git's answer. */
export function parseGitVersion(out: string): [number, number] | undefined {
  const m = /git version (\d+)\.(\d+)/.exec(out);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** The oldest git whose options the shadow repository uses (`--pathspec-from-file`: 2.25; GIT_CONFIG_GLOBAL: 2.32). */
export const MIN_GIT: readonly [number, number] = [2, 32];

export function gitIsRecentEnough(version: readonly [number, number]): boolean {
  return version[0] > MIN_GIT[0] || (version[0] === MIN_GIT[0] && version[1] >= MIN_GIT[1]);
}

/** NUL-separated paths (`-z` output). */
export function splitNul(out: string): string[] {
  return out.split('\0').filter((s) => s.length > 0);
}

export type FileStatus = 'added' | 'modified' | 'deleted';

/** `git diff-tree -r -z --no-renames --name-status` → path and what happened to it. */
export function parseNameStatus(out: string): Map<string, FileStatus> {
  const parts = out.split('\0');
  const result = new Map<string, FileStatus>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const code = parts[i].trim();
    const path = parts[i + 1];
    if (!code || !path) continue;
    result.set(path, code.startsWith('A') ? 'added' : code.startsWith('D') ? 'deleted' : 'modified');
  }
  return result;
}

/**
 * `files.exclude` as lines of the shadow repository's `info/exclude`: the patterns that are on
 * (a `when` clause cannot be decided without the folder's files: such a pattern is left out, so the
 * file is kept rather than lost), braces expanded, anchored at the folder as VS Code's globs are
 * (a leading `**` matches at any depth in both).
 */
export function excludeLines(filesExclude: Readonly<Record<string, unknown>>): string[] {
  const lines: string[] = [];
  for (const [glob, on] of Object.entries(filesExclude)) {
    if (on !== true) continue;
    for (const pattern of expandBraces(glob)) {
      if (!pattern || pattern.startsWith('!') || pattern.startsWith('#')) continue;
      lines.push(pattern.includes('/') ? `/${pattern.replace(/^\/+/, '')}`.replace(/^\/\*\*\//, '**/') : `/${pattern}`);
    }
  }
  return lines;
}

function expandBraces(glob: string): string[] {
  const m = /\{([^{}]*)\}/.exec(glob);
  if (!m) return [glob];
  return m[1].split(',').flatMap((alt) => expandBraces(glob.slice(0, m.index) + alt + glob.slice(m.index + m[0].length)));
}

/** The pathspecs of `git add`: everything but the files over the size limit (listed, not stored). */
export function addPathspecs(tooLarge: readonly string[]): string {
  return ['.', ...tooLarge.map((p) => `:(exclude,literal)${p}`)].join('\0');
}
