// The README and the guides link only to what exists: every relative link resolves to a file, and its
// anchor to a heading of that file; the index (docs/README.md) links every guide, and the README links
// the index. A moved section or a renamed heading fails here instead of leaving a dead link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { githubAnchor } from '../../src/handlers/docs/markdown-passages.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const guides = readdirSync(join(repoRoot, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort();
const documents = ['README.md', ...guides.map((name) => `docs/${name}`)];

/** Markdown without fenced code blocks and inline code, where link syntax is only an example. */
function prose(file: string): string {
  return readFileSync(join(repoRoot, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

/** Relative link targets of a file: `[text](target)`, without absolute URLs and mail addresses. */
function relativeLinks(file: string): string[] {
  const targets = [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

// Headings quote code in backticks, which prose() drops: read headings from the raw text instead.
function headingAnchors(file: string): Set<string> {
  const raw = readFileSync(join(repoRoot, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of raw.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = githubAnchor(heading);
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
}

describe('documentation links', () => {
  it.each(documents)('resolves every relative link of %s to a file and heading', (file) => {
    const broken: string[] = [];
    for (const link of relativeLinks(file)) {
      const [path, anchor] = link.split('#');
      const target = path ? relative(repoRoot, join(repoRoot, dirname(file), decodeURI(path))) : file;
      if (!existsSync(join(repoRoot, target))) {
        broken.push(`${link}: no file ${target}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !headingAnchors(target).has(anchor)) {
        broken.push(`${link}: no heading #${anchor} in ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('links every guide from the index, docs/README.md', () => {
    const linked = new Set(relativeLinks('docs/README.md').map((link) => link.split('#')[0]));
    expect(guides.filter((name) => name !== 'README.md' && !linked.has(name))).toEqual([]);
  });

  it('links the index from the README', () => {
    expect(relativeLinks('README.md')).toContain('docs/README.md');
  });
});
