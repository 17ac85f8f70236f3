// The server's resources: the guides as docs:// (list_docs, get_doc) and read-only views of workspace objects
// (workspace://settings, sequence://{sequence_id}). Every read is a REST GET sent with the unit's own
// credential, as its tool calls are, so a resource shows only what the same key's tools could read.
//
// URIs: `docs://<path>` is a page whole (`docs://docs/replies.md`), `docs://<path>#<anchor>` one section
// (`docs://README.md#layout`), the path and anchor being what list_docs and search_docs' `source` give.
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
  type Server,
} from '@modelcontextprotocol/server';
import { sequenceText, settingsText } from './resource-views.ts';

/** Sends GET <path> (`/api/v1/…`) with a unit's credential and context; the transport decides how. */
export type GuideApi = (path: string, authorization: string | undefined, context: unknown) => Promise<Response>;
type Read = (path: string) => Promise<Response>;

const KNOWN = 'resources/list and resources/templates/list name what can be read';

const templates: ResourceTemplateType[] = [
  {
    uriTemplate: 'sequence://{sequence_id}',
    name: 'sequence',
    title: 'Email sequence',
    description: 'A sequence as text: status, approval, steps with subjects and waits, stats.',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'docs://{+page}',
    name: 'docs',
    title: 'Docs page or section',
    description:
      'A guide (docs://docs/replies.md) or one section (docs://README.md#layout), as search_docs sources name them.',
    mimeType: 'text/markdown',
  },
];

interface DocsListing {
  data: Array<{ path: string; title: string; sections: Array<{ anchor: string; heading: string }> }>;
}

/** The problem body's detail, or the status line. */
async function failure(uri: string, response: Response): Promise<Error> {
  const problem = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
  const detail = problem.detail ?? `HTTP ${response.status}`;
  if (response.status === 404) return new ResourceNotFoundError(uri, `Resource ${uri} not found: ${detail}`);
  const code = response.status >= 500 ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidRequest;
  return new ProtocolError(code, `Reading ${uri} failed (${response.status} ${problem.code ?? ''}): ${detail}`, {
    uri,
    status: response.status,
  });
}

async function getJson<T>(read: Read, path: string, uri: string): Promise<T> {
  const response = await read(path);
  if (!response.ok) throw await failure(uri, response);
  return (await response.json()) as T;
}

/** README sections one by one (the README is long), every other guide whole. */
async function listResources(read: Read): Promise<Resource[]> {
  const docs = await getJson<DocsListing>(read, '/api/v1/docs', 'docs://');
  const pages = docs.data.flatMap((page): Resource[] =>
    page.path === 'README.md'
      ? page.sections.map((s) => ({ uri: `docs://README.md#${s.anchor}`, name: `README: ${s.heading}` }))
      : [{ uri: `docs://${page.path}`, name: page.title }],
  );
  const settings = { uri: 'workspace://settings', name: 'Workspace settings' };
  return [settings, ...pages].map((r) => ({ ...r, mimeType: 'text/markdown' }));
}

function decode(part: string, uri: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ResourceNotFoundError(uri, `Resource ${uri} not found: it is not a well-formed URI.`);
  }
}

async function readText(read: Read, uri: string): Promise<string> {
  if (uri === 'workspace://settings') return settingsText(await getJson(read, '/api/v1/workspace/settings', uri));
  const sequence = /^sequence:\/\/([^/?#]+)$/.exec(uri);
  if (sequence) {
    const id = encodeURIComponent(decode(sequence[1], uri));
    return sequenceText(await getJson(read, `/api/v1/sequences/${id}`, uri));
  }
  const docs = /^docs:\/\/([^#]+)(?:#(.+))?$/.exec(uri);
  if (docs) {
    const query = new URLSearchParams({ path: decode(docs[1], uri) });
    if (docs[2]) query.set('section', decode(docs[2], uri));
    return (await getJson<{ text: string }>(read, `/api/v1/docs/page?${query}`, uri)).text;
  }
  throw new ResourceNotFoundError(
    uri,
    `Unknown resource ${uri}: ${KNOWN} (docs://, workspace://settings, sequence://).`,
  );
}

export function registerResources(server: Server, read: Read): void {
  server.setRequestHandler('resources/list', async () => ({ resources: await listResources(read) }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: templates }));
  server.setRequestHandler('resources/read', async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    return { contents: [{ uri, mimeType: 'text/markdown', text: await readText(read, uri) }] };
  });
}
