// @ts-check
import tseslint from 'typescript-eslint';

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
  // Layers point down: core ← connection ← services ← render ← the composition root (context.ts,
  // commands.ts, apiImpl.ts, extension.ts). The top-level adapters (config.ts, log.ts, titles.ts,
  // util/) are shared by every layer but core. Each rule names what a layer must not reach.
  {
    // The pure layers must never reach VS Code: they are unit-tested in plain Node.
    files: ['src/agent/**/*.ts', 'src/protocol/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Pure module: no vscode here.' }] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: "import * as z from 'zod': esbuild keeps all of zod's locales (264 KB) for the `z` re-export.",
        },
      ],
    },
  },
  {
    files: ['src/extension/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Pure module: no vscode here.' }],
          patterns: [
            {
              regex: String.raw`^(\.\./)+(connection|services|render|util)(/|$)|^(\.\./)+(config|log|titles|context|commands|api|apiImpl|extension)$`,
              message: 'core/ is the bottom layer: it imports nothing of the extension around it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/extension/connection/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(\.\./)+(services|render)(/|$)|^(\.\./)+(context|commands|apiImpl|extension)$`,
              message: 'connection/ sits below services/ and render/: pass what it needs in its deps.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/extension/services/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(\.\./)+render(/|$)|^(\.\./)+(context|commands|apiImpl|extension)$`,
              message: 'services/ sits below render/: renderers use services, never the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/extension/render/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: String.raw`^(\.\./)+(context|commands|apiImpl|extension)$`, message: 'render/ must not reach the composition root: take deps.' },
          ],
        },
      ],
    },
  },
);
