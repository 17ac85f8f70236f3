// Bundles the panel in memory, synchronously, for a service run from the sources. esbuild is a development
// dependency: it is loaded here only, through require, so the built service (which reads dist/admin/) never loads it.
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import type * as Esbuild from 'esbuild';
import { panelBuildOptions, type PanelBundle } from './panel-bundle.ts';

const require = createRequire(import.meta.url);

export function bundlePanelSync(): PanelBundle {
  const esbuild = require('esbuild') as typeof Esbuild;
  const result = esbuild.buildSync({ ...panelBuildOptions, write: false, outdir: '/panel' });
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const file of result.outputFiles) files.set(basename(file.path), new Uint8Array(file.contents));
  return { files, metafile: result.metafile! };
}
