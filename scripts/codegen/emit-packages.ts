// Emits the generated parts of the installable packages under packages/: both package.json files, versioned
// with the contract's info.version. Paths are relative to the repository root. The SDK's sources are not
// emitted twice: packages/build.ts copies src/generated's SDK files (SDK_SOURCES) into the package when it
// builds it, so the package and the server never drift and the repository holds one copy.
import type { GeneratedFile } from './generate.ts';

export interface PackageInputs {
  /** The contract's info.version: both packages carry it. */
  version: string;
  /** What the server's package.json asks for, so the packages run on the versions the tests ran. */
  dependencyRanges: Record<string, string>;
  headerText: string;
}

// Scoped names: only the scope's owner can publish under @service-mcp, so no install instruction of ours can
// resolve to someone else's package (the unscoped `service-sdk` on npm is an unrelated package). The
// launcher's command stays `service-mcp`, the seed's name for it.
export const SDK_PACKAGE = '@service-mcp/sdk';
export const LAUNCHER_PACKAGE = '@service-mcp/launcher';
export const LAUNCHER_COMMAND = 'service-mcp';
/** The files of src/generated/ that the SDK package is built from (copied to packages/sdk/src/generated/). */
export const SDK_SOURCES = ['types.ts', 'sdk-runtime.ts', 'sdk.ts'] as const;

function range(inputs: PackageInputs, name: string): string {
  const value = inputs.dependencyRanges[name];
  if (!value) throw new Error(`package.json has no dependency ${name}, which the packages need`);
  return value;
}

function packageJson(fields: Record<string, unknown>, headerText: string): string {
  return `${JSON.stringify({ '//': headerText, ...fields }, null, 2)}\n`;
}

const common = {
  type: 'module',
  license: 'UNLICENSED',
  engines: { node: '^20.19.0 || ^22.12.0 || >=24.0.0' },
  // A scoped package is published private unless told otherwise.
  publishConfig: { access: 'public' },
};

export function emitSdkPackageJson(inputs: PackageInputs): string {
  return packageJson(
    {
      name: SDK_PACKAGE,
      version: inputs.version,
      description: 'Typed client of the service API: one function per operation, generated from the OpenAPI contract',
      ...common,
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      files: ['dist', 'README.md'],
      dependencies: { 'openapi-fetch': range(inputs, 'openapi-fetch') },
    },
    inputs.headerText,
  );
}

export function emitLauncherPackageJson(inputs: PackageInputs): string {
  return packageJson(
    {
      name: LAUNCHER_PACKAGE,
      version: inputs.version,
      description: `The service's MCP tools over stdio, for desktop agent clients: npx -y --package ${LAUNCHER_PACKAGE} ${LAUNCHER_COMMAND}`,
      ...common,
      bin: { [LAUNCHER_COMMAND]: './dist/service-mcp.js' },
      files: ['dist', 'README.md'],
      dependencies: {
        '@modelcontextprotocol/server': range(inputs, '@modelcontextprotocol/server'),
        [SDK_PACKAGE]: inputs.version,
      },
    },
    inputs.headerText,
  );
}

export function emitPackages(inputs: PackageInputs): GeneratedFile[] {
  return [
    { name: 'packages/sdk/package.json', content: emitSdkPackageJson(inputs) },
    { name: 'packages/launcher/package.json', content: emitLauncherPackageJson(inputs) },
  ];
}
