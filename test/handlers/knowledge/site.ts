// A small website on a real local port for the crawler: pages with headings and links, robots.txt, and
// the misbehaving pages a crawler must survive (a redirect loop, a page that never ends, a gzip bomb,
// a 404, a page without text, an image). Records every request with its User-Agent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Site {
  url: string;
  requests: Array<{ path: string; userAgent: string }>;
  /** Replaces a page's HTML (or makes it answer a status, or never answer). */
  set(path: string, page: { html?: string; status?: number; hang?: boolean }): void;
  close(): Promise<void>;
}

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/blog/post-1">Blog</a> <a href="/private/secret">Staff</a> <a href="https://elsewhere.example/">Partner</a></nav>
<main>${body}</main><footer>© Acme Rockets · <a href="/legal">Legal</a> · Cookie settings</footer></body></html>`;

export const pages: Record<string, string> = {
  '/': page(
    'Acme Rockets — reusable rockets for small teams',
    `<h1>Reusable rockets for small teams</h1>
<p>Acme Rockets builds reusable launch vehicles that small teams can fly every week. Our flagship, the Roadrunner, lands itself on a pad the size of a tennis court.</p>
<h2>Why teams choose us</h2><p>Launch costs fall by ninety percent when the booster comes home. Every Roadrunner flight is insured and tracked in real time.</p>
<p>Read <a href="/about">about our company</a>, our <a href="/blog/post-1">launch diary</a> and our <a href="/pricing?utm_source=home">pricing</a>.</p>`,
  ),
  '/about': page(
    'About Acme Rockets',
    `<h1>About us</h1><p>Founded in 2019 in Mojave, Acme Rockets employs forty engineers who believe launch should be boring.</p>
<h2>Our values</h2><ul><li>Safety before schedule</li><li>Reuse everything</li><li>Publish every failure report</li></ul>`,
  ),
  '/blog/post-1': page(
    'Launch diary: flight 12',
    `<article><h1>Flight 12: our first night landing</h1><p>On flight 12 the Roadrunner booster touched down at 02:14 local time, the first night landing in company history.</p>
<h2>What we learned</h2><p>Landing legs need heaters below minus ten degrees. We now preheat them during the coast phase.</p>
<link rel="canonical" href="/blog/post-1"></article>`,
  ),
  '/pricing': page(
    'Pricing',
    `<h1>Pricing</h1><p>A dedicated Roadrunner launch costs 1.2 million dollars; rideshare slots start at 15,000 dollars per kilogram.</p>`,
  ),
  '/private/secret': page('Staff only', `<h1>Staff</h1><p>Internal payroll figures that must never be crawled.</p>`),
  '/legal': page('Legal', `<h1>Legal</h1><p>Terms of service for launch customers.</p>`),
  '/empty': '<!doctype html><html><head><title></title></head><body><script>var x = 1;</script></body></html>',
};

export async function startSite(options: { robots?: string } = {}): Promise<Site> {
  const overrides = new Map<string, { html?: string; status?: number; hang?: boolean }>();
  const requests: Site['requests'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    requests.push({ path: url.pathname, userAgent: String(req.headers['user-agent'] ?? '') });
    const override = overrides.get(url.pathname);
    if (override?.hang) return;
    if (override?.status) {
      res.writeHead(override.status, { 'content-type': 'text/plain' });
      return res.end('no');
    }
    if (url.pathname === '/robots.txt') {
      if (options.robots === undefined) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('User-agent: *\nDisallow: /private/\n');
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(options.robots);
    }
    if (url.pathname === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    if (url.pathname === '/never-ends') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body><p>');
      const timer = setInterval(() => res.write('still going '), 100);
      req.on('close', () => clearInterval(timer));
      return;
    }
    if (url.pathname === '/bomb') {
      const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a'));
      res.writeHead(200, {
        'content-type': 'text/html',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      });
      return res.end(bomb);
    }
    if (url.pathname === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    }
    if (url.pathname === '/notes.md') {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
      return res.end(
        '# Launch notes\n\nThe Roadrunner flies weekly.\n\n## Fuel\n\nWe burn methane and liquid oxygen.\n',
      );
    }
    const html = override?.html ?? pages[url.pathname];
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<h1>Not found</h1>');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    set: (path, p) => overrides.set(path, p),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
