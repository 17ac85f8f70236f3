// The service listening in live mode against the strict fake Google, its OAuth redirect pointing back at the
// service, with no pause between sends: the set-up every live-mode sending and reply test shares.
import type { TestApp } from '../../helpers/app.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';
import { listenOnReservedPort } from './listen.ts';

export interface LiveService {
  app: TestApp;
  server: { url: string; close(): Promise<void> };
  google: FakeGoogle;
  close(): Promise<void>;
}

export async function listenLiveAgainstFakeGoogle(clock: { now: () => Date }): Promise<LiveService> {
  let redirect = '';
  const google = await startFakeGoogle({ redirectUri: () => redirect });
  const { app, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock,
    env: { ...google.env(), SEQUENCE_SEND_SPACING_MS: '0' },
  });
  redirect = `${server.url}/oauth/callback`;
  return {
    app,
    server,
    google,
    async close() {
      await server.close();
      await app.close();
      await google.close();
    },
  };
}
