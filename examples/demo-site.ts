// The brand website the example ingests when no --site is given: four pages of prose about a fictional
// product, served on 127.0.0.1 so the example needs no internet. The service fetches it like any site, which
// is why it must run with OUTBOUND_ALLOW_PRIVATE=true (it refuses loopback addresses otherwise). Beside it,
// what the example uses only with it: the leads, the brief and the postal address of the demo.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// Two rows are bad on purpose: the import reports them and goes on with the rest.
export const DEMO_CSV = `email,first_name,last_name,company
maya@rise-bakery.example,Maya,Okafor,Rise Bakery
tom@petal-and-stem.example,Tom,Lindqvist,Petal and Stem
not-an-email,Bad,Row,Nowhere
priya@green-grocer.example,Priya,Shah,Green Grocer
,No,Email,Missing
`;

// The demo site's brief: it is about the demo's cargo bikes, so the example uses it only with this site. With
// --site, the brief is the user's own (--goal and --audience are required): another site's emails would
// otherwise offer cargo bikes.
export const DEMO_BRIEF = {
  goal: 'Get local shops to book a free week-long trial of a Brightline cargo e-bike for their deliveries',
  audience: 'owners of bakeries, florists and grocers that deliver across town',
  call_to_action: 'a free week-long trial of a cargo bike at your shop',
};
/** Set only in a workspace that has no postal address yet, and only for the demo site. */
export const DEMO_POSTAL_ADDRESS = 'Demo Shop Supplies Ltd, 1 Example Street, Leeds LS1 1AA, UK';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><nav><a href="/">Home</a> <a href="/how-it-works">How it works</a> <a href="/customers">Customers</a> <a href="/pricing">Pricing</a></nav>
<main>${body}</main><footer>Brightline Cargo, 14 Canal Street, Leeds</footer></body></html>`;

const pages: Record<string, string> = {
  '/': page(
    'Brightline Cargo — electric cargo bikes for local deliveries',
    `<h1>Deliver across town without a van</h1>
<p>Brightline Cargo rents electric cargo bikes to local shops that deliver their own orders. Each bike carries up to 120 kilograms in a lockable, weatherproof box.</p>
<p>Bakeries, florists and grocers use Brightline bikes to reach customers across town in half the time a van takes at rush hour.</p>
<p>Every shop can book a free week-long trial: we bring the bike, show your team how to ride it, and collect it if it is not for you.</p>
<p>See <a href="/how-it-works">how it works</a>, what <a href="/customers">our customers say</a> and our <a href="/pricing">pricing</a>.</p>`,
  ),
  '/how-it-works': page(
    'How Brightline Cargo works',
    `<h1>How it works</h1>
<p>You choose a bike size, we deliver it to your shop, and your riders are out on their first deliveries the same afternoon.</p>
<p>Servicing, insurance and a replacement bike within four hours are included in the monthly rent.</p>
<p>The battery lasts 80 kilometres and charges from an ordinary socket overnight.</p>
<p>Riders need no licence, and bike lanes let them skip the traffic that holds delivery vans up.</p>`,
  ),
  '/customers': page(
    'Brightline Cargo customers',
    `<h1>Our customers</h1>
<p>More than 300 local shops deliver with Brightline Cargo bikes today.</p>
<p>Rise Bakery cut its delivery costs by 40 percent in the first month after swapping its van for two bikes.</p>
<p>Petal and Stem, a florist, now promises same-hour delivery across town and doubled its online orders.</p>`,
  ),
  '/pricing': page(
    'Brightline Cargo pricing',
    `<h1>Pricing</h1>
<p>A standard cargo bike rents for 149 pounds a month, with no deposit and one month's notice.</p>
<p>The first week is free for every shop, so owners can try deliveries with a bike before they commit.</p>`,
  ),
};

export interface DemoSite {
  url: string;
  close(): Promise<void>;
}

export async function startDemoSite(): Promise<DemoSite> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://demo').pathname;
    if (path === '/robots.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const html = pages[path];
    res
      .writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
      .end(html ?? page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        // The service's crawler may hold a keep-alive connection open; it must not keep the example alive.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
