// The messages between the benchmark and a server it runs in a child process: the child reports its
// URL once it listens, answers CPU-time queries (so server CPU per request can be charged without
// counting the load generator), and shuts down cleanly on `stop` or when the parent goes away.

export type ParentMessage = { type: 'cpu' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; url: string; info: Record<string, string> }
  | { type: 'cpu'; micros: number }
  | { type: 'error'; message: string };

export interface StartedServer {
  url: string;
  /** Shown in the report, for example which database the service runs on. */
  info?: Record<string, string>;
  stop(): Promise<void>;
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

/** Child side: starts the server, then serves the protocol until told to stop. */
export async function runAsChild(start: () => Promise<StartedServer>): Promise<void> {
  if (!process.send) throw new Error('this script is started by scripts/bench.ts (it needs an IPC channel)');
  let server: StartedServer;
  try {
    server = await start();
  } catch (error) {
    send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await server.stop();
    } finally {
      // A normal exit (not a signal) lets `node --cpu-prof` write its profile.
      process.exit(0);
    }
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      send({ type: 'cpu', micros: user + system });
    } else if (message.type === 'stop') void stop();
  });
  // The parent died or closed the channel: never outlive it.
  process.on('disconnect', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  send({ type: 'ready', url: server.url, info: server.info ?? {} });
}
