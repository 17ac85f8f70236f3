// The embedded database's socket serves several connections on PGlite's one backend (the service's pool, the job
// queue's pool): one connection's extended-protocol exchange, Parse to Sync, runs whole even when it arrives in
// two socket reads with another connection's query between them (src/db/pglite-exchange-affinity.ts).
import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connection.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

let db: Database | undefined;
let socket: Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  await db?.close();
});

const cstring = (text: string): Buffer => Buffer.from(`${text}\0`, 'utf8');
const int16 = (n: number): Buffer => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
/** A front-end message: its type, then its length (itself included) and body. */
const message = (type: string, ...body: Buffer[]): Buffer => {
  const content = Buffer.concat(body);
  return Buffer.concat([Buffer.from(type), int32(content.length + 4), content]);
};

/** A raw protocol connection: sends bytes, and reads back-end messages as [type, body]. */
async function rawConnection(path: string) {
  const s = connect({ path });
  socket = s;
  let buffer = Buffer.alloc(0);
  const waiting: Array<() => void> = [];
  s.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (const wake of waiting.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  const next = async (): Promise<[string, Buffer]> => {
    while (buffer.length < 5 || buffer.length < 1 + buffer.readInt32BE(1))
      await new Promise<void>((resolve) => waiting.push(resolve));
    const length = buffer.readInt32BE(1);
    const item: [string, Buffer] = [String.fromCharCode(buffer[0]), buffer.subarray(5, 1 + length)];
    buffer = buffer.subarray(1 + length);
    return item;
  };
  /** Reads up to ReadyForQuery; returns the text of each DataRow's first column and each error's message. */
  const untilReady = async (): Promise<{ values: string[]; errors: string[] }> => {
    const values: string[] = [];
    const errors: string[] = [];
    for (let [type, body] = await next(); type !== 'Z'; [type, body] = await next()) {
      if (type === 'D') values.push(body.subarray(6, 6 + body.readInt32BE(2)).toString('utf8'));
      if (type === 'E')
        errors.push(
          body
            .toString('utf8')
            .split('\0')
            .find((f) => f.startsWith('M'))
            ?.slice(1) ?? '',
        );
    }
    return { values, errors };
  };
  const startup = Buffer.concat([
    int32(196608),
    cstring('user'),
    cstring('postgres'),
    cstring('database'),
    cstring('postgres'),
    Buffer.from([0]),
  ]);
  s.write(Buffer.concat([int32(startup.length + 4), startup]));
  await untilReady();
  return { write: (bytes: Buffer) => s.write(bytes), untilReady };
}

describeEmbeddedOnly('the embedded database shared by several connections', () => {
  it("runs a connection's Parse-to-Sync exchange whole when another connection's query comes between its halves", async () => {
    db = await openDatabase({ memory: true });
    const raw = await rawConnection(db.sql.options.path as string);
    // The first half: the unnamed statement and portal, bound to 'mine'; Execute and Sync come later, in another read.
    raw.write(
      Buffer.concat([
        message('P', cstring(''), cstring('select $1::text as v'), int16(0)),
        message('B', cstring(''), cstring(''), int16(0), int16(1), int32(4), Buffer.from('mine'), int16(0)),
        message('D', Buffer.from('P'), cstring('')),
      ]),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The service's pool asks meanwhile: it binds the unnamed portal too.
    const theirs = db.sql<{ v: string }[]>`select ${'theirs'}::text as v`;
    await new Promise((resolve) => setTimeout(resolve, 100));
    raw.write(Buffer.concat([message('E', cstring(''), int32(0)), message('S')]));

    expect(await raw.untilReady()).toEqual({ values: ['mine'], errors: [] });
    expect(await theirs).toEqual([{ v: 'theirs' }]);
  });
});
