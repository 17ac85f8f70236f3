// Type-aware lint rules the type checker does not enforce by itself; formatting is Biome's (biome.json).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'src/generated/**',
      'packages/*/src/generated/**',
      'packages/*/dist/**',
      // The build (npm run build): bundles of our code and of the packages it uses.
      'dist/**',
      'test/codegen/__snapshots__/**',
      'test/codegen/fixtures/**',
      'test/codegen/synthetic-build/**',
      '.tmp/**',
      'test-output/**',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
);
