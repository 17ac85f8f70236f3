// search_knowledge through the real app over chunks written as a fetch writes them: the best `limit` current
// chunks in rank order, never a chunk of a generation still being fetched, even when such chunks match better
// than every current one (a refresh in progress), in every source or in the ones named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChunks,
  insertSource,
  publishGeneration,
  type NewChunk,
} from '../../../src/handlers/knowledge/knowledge-data.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let owner: SignupResult;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(async () => {
  await t?.close();
});

interface Hit {
  chunk_id: string;
  source_id: string;
  page_url: string;
  heading_path: string[];
  snippet: string;
  rank: number;
}

async function search(query: string, extra = ''): Promise<Hit[]> {
  const res = await t.request(`/api/v1/knowledge/search?query=${encodeURIComponent(query)}${extra}`, {
    token: owner.token,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: Hit[] }).data;
}

/** `count` chunks whose text repeats `word` 1..count times, so their ranks differ. */
const chunks = (page: string, word: string, count: number): NewChunk[] =>
  Array.from({ length: count }, (_, i) => ({
    pageUrl: `https://docs.example/${page}`,
    pageTitle: 'Guide',
    headingPath: ['Guide', `Part ${i}`],
    position: i,
    text: `Part ${i}. ${Array.from({ length: i + 1 }, () => `The ${word} is ready.`).join(' ')} Nothing else here.`,
  }));

async function publishedSource(url: string, content: NewChunk[]): Promise<string> {
  const { sql } = t.db;
  const source = await insertSource(sql, owner.workspaceId, t.deps.ids, {
    url,
    maxPages: 5,
    includePaths: [],
    excludePaths: [],
    createdBy: null,
    now: new Date(),
  });
  await insertChunks(sql, owner.workspaceId, t.deps.ids, source.id, 1, content);
  await sql.begin((tx) =>
    publishGeneration(tx, owner.workspaceId, source.id, {
      generation: 1,
      title: 'Guide',
      pagesFetched: 1,
      now: new Date(),
    }),
  );
  return source.id;
}

describe('search_knowledge', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = await publishedSource('https://docs.example/a', chunks('a', 'widget', 8));
    second = await publishedSource('https://docs.example/b', chunks('b', 'widget', 4));
    // A refresh of the first source in progress: its next generation matches far better than anything current.
    const staged = chunks('a-next', 'widget widget widget', 12).map((c) => ({ ...c, text: `${c.text} ${c.text}` }));
    await insertChunks(t.db.sql, owner.workspaceId, t.deps.ids, first, 2, staged);
  });

  it('answers the best `limit` current chunks, best first, and none of a generation still being fetched', async () => {
    const hits = await search('widget', '&limit=5');
    expect(hits).toHaveLength(5);
    expect(hits.every((h) => !h.page_url.endsWith('a-next'))).toBe(true);
    const ranks = hits.map((h) => h.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    // Equal ranks (the same text in both sources) keep one order: by chunk id.
    for (let i = 1; i < hits.length; i += 1)
      if (hits[i].rank === hits[i - 1].rank) expect(hits[i].chunk_id > hits[i - 1].chunk_id).toBe(true);
    expect(hits[0].snippet).toMatch(/\*\*widget\*\*/);
  });

  it('answers every current match when there are fewer than `limit`', async () => {
    const hits = await search('widget', '&limit=50');
    expect(hits).toHaveLength(12);
    expect(new Set(hits.map((h) => h.source_id))).toEqual(new Set([first, second]));
  });

  it('keeps to the sources named', async () => {
    const hits = await search('widget', `&source_ids=${second}&limit=3`);
    expect(hits.map((h) => h.page_url)).toEqual(Array(3).fill('https://docs.example/b'));
    expect(await search('widget', `&source_ids=${first}&limit=50`)).toHaveLength(8);
    expect(await search('widget', `&source_ids=${second},${first}&limit=50`)).toHaveLength(12);
  });

  it('answers 404 naming the first source that is not in the workspace, and 400 for a malformed id before it', async () => {
    const unknown = 'ks_00000000000000000000000000';
    const res = await t.request(`/api/v1/knowledge/search?query=widget&source_ids=${first},${unknown},nonsense`, {
      token: owner.token,
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toContain(unknown);
    const malformed = await t.request(`/api/v1/knowledge/search?query=widget&source_ids=${first},nonsense,${unknown}`, {
      token: owner.token,
    });
    expect(malformed.status).toBe(400);
  });

  it('answers the new generation alone once it is published', async () => {
    await t.db.sql.begin((tx) =>
      publishGeneration(tx, owner.workspaceId, first, {
        generation: 2,
        title: 'Guide',
        pagesFetched: 1,
        now: new Date(),
      }),
    );
    const hits = await search('widget', `&source_ids=${first}&limit=50`);
    expect(hits).toHaveLength(12);
    expect(hits.every((h) => h.page_url === 'https://docs.example/a-next')).toBe(true);
  });
});
