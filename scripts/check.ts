// `npm run typecheck` and `npm run lint` in one process, for `npm test`: each builds the TypeScript program of the
// whole tree (typescript-eslint's project service again for its type-aware rules, once more for the launcher
// package, which type-checks the server code it bundles). Here every program is built once, from source files
// parsed once and shared between them; tsc's diagnostics come from them, then ESLint runs on the same programs
// (typescript-eslint's `programs`). What fails is what the two commands fail on, with their formatting.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A compiler host whose parsed source files are shared by every program made with it. */
function sharedHost(): (options: ts.CompilerOptions) => ts.CompilerHost {
  const parsed = new Map<string, ts.SourceFile | undefined>();
  return (options) => {
    const host = ts.createCompilerHost(options, true);
    const parse = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
      const settings = typeof languageVersion === 'object' ? languageVersion : { languageVersion };
      const key = `${fileName}\0${settings.languageVersion}\0${settings.impliedNodeFormat}`;
      if (!fresh && parsed.has(key)) return parsed.get(key);
      const file = parse(fileName, languageVersion, onError, fresh);
      parsed.set(key, file);
      return file;
    };
    return host;
  };
}

function program(tsconfig: string, hostFor: (options: ts.CompilerOptions) => ts.CompilerHost): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, tsconfig),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${tsconfig}`);
  return ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host: hostFor(config.options),
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: config.errors,
  });
}

const hostFor = sharedHost();
// What `npm run typecheck` checks.
const checked = ['tsconfig.json', 'tsconfig.admin.json'].map((tsconfig) => program(tsconfig, hostFor));
const diagnostics = checked.flatMap((p) => [...ts.getPreEmitDiagnostics(p)]);
if (diagnostics.length) {
  process.stdout.write(
    ts.formatDiagnosticsWithColorAndContext(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    }),
  );
  process.stdout.write(`\ntypecheck: ${diagnostics.length} error(s)\n`);
  process.exit(1);
}

// What `npm run lint`'s ESLint lints beside them: the packages under their own tsconfig, and packages/build.ts,
// which no tsconfig includes (the project service gives it the root's options).
const packages = ['packages/launcher/tsconfig.json', 'packages/sdk/tsconfig.json'].map((t) => program(t, hostFor));
const main = checked[0];
const loose = ts.createProgram({
  rootNames: [join(root, 'packages/build.ts')],
  options: main.getCompilerOptions(),
  host: hostFor(main.getCompilerOptions()),
});
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, programs: [main, ...packages, loose] } },
  },
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const report = await formatter.format(results);
if (report) process.stdout.write(report);
const errors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
process.stdout.write(`typecheck: no errors; eslint: ${results.length} files, ${errors} error(s)\n`);
process.exit(errors ? 1 : 0);
