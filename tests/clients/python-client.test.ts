import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startClientTestServer, type ClientTestServer } from './client-test-server.ts';

let server: ClientTestServer;
before(async () => {
  // runSources: phone frames go through the real detector, which runs only in a serving process
  server = await startClientTestServer({ config: { runSources: true } });
});
after(() => server.close());

/** The Python suite (tests/clients/python, stdlib unittest) with the machine's python3, against this process's service. */
test('the Python client passes its unittest suite against the running service', async (t) => {
  const env = {
    ...process.env,
    PYTHONPATH: resolve('clients/python'),
    PYTHONDONTWRITEBYTECODE: '1',
    VIGIL_BASE_URL: server.baseUrl,
    VIGIL_ORG_KEY: (await server.t.orgKey()).key,
    VIGIL_HOUSEHOLD_KEY: (await server.t.householdKey({ mode: 'test' })).key,
    VIGIL_RATE_LIMITED_KEY: (await server.t.orgKey({ rate: 1 })).key,
  };
  const child = spawn('python3', ['-m', 'unittest', 'discover', '-s', 'tests/clients/python', '-p', 'test_*.py', '-v'], { env });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  for (const line of output.split('\n').filter((l) => / \.\.\. |^Ran |^OK|^FAILED/.test(l))) t.diagnostic(line);
  assert.equal(code, 0, `python3 -m unittest failed:\n${output}`);
  assert.match(output, /^Ran \d+ tests/m);
  assert.doesNotMatch(output, /skipped '.*missing VIGIL_/, 'the service suite ran, not skipped');
});
