// The layout section tells the truth: every path its code block names exists in the repository (`git ls-files`),
// and every folder directly under src/ and src/handlers/ is named there. The block's format, one entry a line:
//   <paths>   <description>        paths: the text before the first run of two or more spaces, several joined
//                                  by ", "; a path ending in / is a folder; <name> stands for one path segment
//                                  and * for part of one; a line starting with spaces continues the description.
// A folder is named by an entry whose path is it or lies inside it, or by a placeholder entry matching it
// whose line also names the folder as a word (`src/handlers/<tag>/   one slice per tag: … leads …`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tracked = execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);

interface Entry {
  paths: string[];
  /** The entry's whole text: paths, description and continuation lines. */
  text: string;
}

/** The entries of the first code block under `## Layout` in `file`. */
function layoutEntries(markdown: string): Entry[] {
  const section = /^## Layout\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1];
  const block = section && /^```[^\n]*\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!block) return [];
  const entries: Entry[] = [];
  for (const line of block.split('\n').filter((l) => l.trim())) {
    if (/^\s/.test(line) && entries.length) {
      entries[entries.length - 1].text += ` ${line.trim()}`;
      continue;
    }
    const first = line.split(/ {2,}/)[0].trim();
    entries.push({ paths: first.split(/,\s+/), text: line });
  }
  return entries;
}

const hasPattern = (path: string) => /[<*]/.test(path);

/** A layout path as a regular expression over tracked file paths (a folder matches every file under it). */
function pathPattern(path: string): RegExp {
  const folder = path.replace(/\/$/, '');
  const body = folder
    .split(/(<[^>]+>|\*)/)
    .map((part) =>
      part === '*' ? '[^/]*' : part.startsWith('<') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(path.endsWith('/') ? `^${body}/` : `^${body}(/|$)`);
}

/** Folders directly under `parent` (e.g. `src/`) that hold tracked files. */
function foldersUnder(parent: string): string[] {
  const names = tracked
    .filter((f) => f.startsWith(parent) && f.slice(parent.length).includes('/'))
    .map((f) => f.slice(parent.length).split('/')[0]);
  return [...new Set(names)].sort().map((name) => `${parent}${name}/`);
}

function names(entries: Entry[], folder: string): boolean {
  const name = folder.split('/').at(-2) as string;
  return entries.some((entry) =>
    entry.paths.some((path) => {
      if (!hasPattern(path)) return `${path.replace(/\/$/, '')}/`.startsWith(folder);
      const matches =
        pathPattern(path).test(folder) || tracked.some((f) => f.startsWith(folder) && pathPattern(path).test(f));
      return matches && new RegExp(`(^|[\\s/(,:])${name}([\\s/),.:;]|$)`).test(entry.text.replace(path, ''));
    }),
  );
}

function layoutCases(file: string): void {
  const entries = layoutEntries(readFileSync(join(repoRoot, file), 'utf8'));

  it('has a code block of entries', () => {
    expect(entries.length).toBeGreaterThan(5);
  });

  it('names only paths that exist in the repository', () => {
    const missing = entries.flatMap((e) => e.paths).filter((path) => !tracked.some((f) => pathPattern(path).test(f)));
    expect(missing).toEqual([]);
  });

  it('names every folder under src/ and src/handlers/', () => {
    const folders = [...foldersUnder('src/'), ...foldersUnder('src/handlers/')];
    expect(folders.filter((folder) => !names(entries, folder))).toEqual([]);
  });
}

describe('the layout block parser', () => {
  it.each([
    ['one path and a description', { given: 'src/app.ts    the app', want: [['src/app.ts']] }],
    ['two paths joined by a comma', { given: 'src/auth/, src/db/   platform', want: [['src/auth/', 'src/db/']] }],
    ['a continuation line', { given: 'src/x/   one\n         two', want: [['src/x/']] }],
    ['a single space inside the description', { given: 'src/a.ts   reads a b', want: [['src/a.ts']] }],
  ])('reads %s', (_name, { given, want }) => {
    expect(layoutEntries(`## Layout\n\n\`\`\`\n${given}\n\`\`\`\n`).map((e) => e.paths)).toEqual(want);
  });

  it('reads nothing from a document without a layout section', () => {
    expect(layoutEntries('# Title\n\n```\nsrc/app.ts  x\n```\n')).toEqual([]);
  });
});

describe('the layout block of README.md', () => layoutCases('README.md'));
