// `npm test`: the static checks (`npm run test:static`: codegen --check, the spec's lint, the import rules, the
// type-check and ESLint) and the tests (`vitest run`, with this script's arguments) at the same time. The checks are
// about a minute and a half of mostly one busy thread; in front of the tests they held them back 2.5-4 minutes in
// CI, beside them they cost the tests about one and a half. The tests' output streams as it comes;
// the checks' output is held and printed once both have ended, so it stays whole and, when it failed, is what the
// log ends with. The exit code is the first non-zero one of the two.
import { spawn, type ChildProcess } from 'node:child_process';

const ended = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

// npm puts node_modules/.bin on PATH for its scripts, so both commands resolve as they do in package.json.
const checks = spawn('npm', ['run', 'test:static'], { stdio: ['ignore', 'pipe', 'pipe'] });
const held: Buffer[] = [];
checks.stdout.on('data', (chunk: Buffer) => held.push(chunk));
checks.stderr.on('data', (chunk: Buffer) => held.push(chunk));
const tests = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });

// Ctrl-C reaches both through the terminal; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    checks.kill(signal);
    tests.kill(signal);
  });
}

const [checksCode, testsCode] = await Promise.all([ended(checks), ended(tests)]);
process.stdout.write('\n== static checks (npm run test:static) ==\n');
process.stdout.write(Buffer.concat(held));
process.stdout.write(`== static checks: ${checksCode === 0 ? 'passed' : `FAILED (exit ${checksCode})`} ==\n`);
process.exit(checksCode || testsCode);
