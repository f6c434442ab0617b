// @ts-check
import tseslint from 'typescript-eslint';

const VSCODE_BANNED = { name: 'vscode', message: 'Pure module: no vscode here.' };
const ZOD_NAMESPACE = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
  message: "import * as z from 'zod': esbuild keeps all of zod's locales (264 KB) for the `z` re-export.",
};

/**
 * Files of `folder` import nothing of the `banned` folders.
 * @param {string} folder
 * @param {string[]} banned
 * @returns {import('typescript-eslint').ConfigWithExtends}
 */
const importsNoneOf = (folder, banned) => ({
  files: [`${folder}/**/*.ts`, `${folder}/**/*.mjs`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: String.raw`^(\.\./)+(${banned.join('|')})/`, message: `${folder}/ never imports ${banned.map((f) => `${f}/`).join(' or ')}: what both need goes in harness/.` },
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.cache/**', 'node_modules/**', 'demo/**', 'test/fixtures/**', 'media/**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // The plain-JavaScript launchers (build, test host, start, UI tests), typechecked by
    // tsconfig.scripts.json: the same promise rules as the TypeScript.
    files: ['**/*.mjs'],
    languageOptions: { parserOptions: { project: './tsconfig.scripts.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // What tests and benches share lives in harness/: the benches never reach into test/ (nor the
  // tests into bench/), and harness/ into neither. (Fixture data is read by path, not imported.)
  importsNoneOf('bench', ['test']),
  importsNoneOf('test', ['bench']),
  importsNoneOf('harness', ['test', 'bench']),
  // The house by feature (docs/architecture.md). Each rule names what a part must not reach.
  // Pure parts never import `vscode` (type imports included), so their unit tests run in plain
  // Node: the bundled agent, the protocol both sides share, and in the extension `base/`, `wire/`
  // and every feature's `model/` folder.
  {
    files: ['src/agent/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [VSCODE_BANNED],
          patterns: [{ regex: String.raw`^(\.\./)+extension(/|$)`, message: 'The bundled agent is its own program: it never imports the extension.' }],
        },
      ],
      'no-restricted-syntax': ['error', ZOD_NAMESPACE],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [VSCODE_BANNED],
          patterns: [{ regex: String.raw`^(\.\./)+(agent|extension)(/|$)`, message: 'src/protocol is what both programs share: it imports neither.' }],
        },
      ],
      'no-restricted-syntax': ['error', ZOD_NAMESPACE],
    },
  },
  {
    files: ['src/extension/base/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [VSCODE_BANNED], patterns: [{ regex: String.raw`^\.\./`, message: 'base/ is what every feature stands on: it imports nothing of them.' }] },
      ],
    },
  },
  {
    files: ['src/extension/wire/**/*.ts', 'src/extension/**/model/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [VSCODE_BANNED],
          patterns: [
            {
              // Up and out of the pure part only into another pure part (a model/, base/, wire/, src/protocol).
              regex: String.raw`^(\.\./)+(?!(.*/)?(model|base|wire|protocol)/|(\.\./)*package\.json$)`,
              message: 'Pure code imports only pure code: another model/ folder, base/, wire/ or src/protocol.',
            },
          ],
        },
      ],
    },
  },
  {
    // The adapters: any feature may use another's, none reaches the root that wires them.
    files: ['src/extension/**/*.ts'],
    ignores: ['src/extension/base/**', 'src/extension/wire/**', 'src/extension/**/model/**', 'src/extension/*.ts', 'src/extension/api/createApi.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: String.raw`^(\.\./)+(root|commands|extension)$|^(\.\./)+api/createApi$`, message: 'Features never reach the root (root.ts, commands.ts, extension.ts, api/createApi.ts): take deps.' },
          ],
        },
      ],
    },
  },
);
