import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { DIALECTS } from '../helpers/harness.ts';
import { offlinePlanner } from '../../src/home/conversations/conversation.service.ts';
import { bearer, createGatedPlanner, createHouseholdTestApp, type HouseholdTestApp } from './household-harness.ts';

const HOUR = 3600_000;

interface Frame {
  id: string;
  event: string;
  data: Record<string, any>;
}

/** Parses a text/event-stream body into frames (comments such as `: ping` skipped). */
function parseFrames(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      const f: Record<string, string> = {};
      for (const line of block.split('\n')) {
        const at = line.indexOf(': ');
        f[line.slice(0, at)] = line.slice(at + 2);
      }
      return { id: f.id, event: f.event, data: JSON.parse(f.data) };
    });
}

const SSE = { accept: 'text/event-stream' };

for (const dialect of DIALECTS) {
  describe(`conversations, boundaries and keys (${dialect})`, () => {
    let t: HouseholdTestApp;
    // the real offline planner behind a gate that stays open unless a test holds streams open
    const gate = createGatedPlanner(offlinePlanner);
    before(async () => {
      t = await createHouseholdTestApp({ dialect, planner: gate, start: '2026-11-21T17:30:00.000Z' });
    });
    after(() => t.close());

    const say = (key: { key: string }, message: string, conversation_id?: string) =>
      t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message, ...(conversation_id ? { conversation_id } : {}) } });
    const get = (key: { key: string }, url: string) => t.app.inject({ url, headers: bearer(key) });

    test('a conversation continues by conversation_id, follow-ups resolve, and the history keeps every turn in order', async () => {
      const key = await t.householdKey();
      const first = (await say(key, 'watch the garage tonight')).json();
      assert.equal(first.actions[0].type, 'watch.created');
      const watchId = first.actions[0].id;
      const second = await say(key, 'make it until 6am instead', first.id);
      assert.equal(second.statusCode, 200);
      assert.equal(second.json().id, first.id);
      const updated = second.json().actions[0];
      assert.equal(updated.type, 'watch.updated');
      assert.equal(updated.id, watchId);
      assert.equal(updated.ends_at, '2026-11-22T06:00:00.000Z', '06:00 in Lisbon (UTC+0 in November)');
      assert.equal((await get(key, `/v1/watches/${watchId}`)).json().ends_at, '2026-11-22T06:00:00.000Z');
      const third = (await say(key, 'stop watching it', first.id)).json();
      assert.deepEqual(
        third.actions.map((a: { type: string; id: string }) => [a.type, a.id]),
        [['watch.stood_down', watchId]],
      );

      const history = await get(key, `/v1/conversations/${first.id}`);
      assert.equal(history.statusCode, 200);
      const h = history.json();
      assert.deepEqual(
        h.messages.map((m: { message: string }) => m.message),
        ['watch the garage tonight', 'make it until 6am instead', 'stop watching it'],
      );
      assert.deepEqual(
        h.messages.map((m: { actions: { type: string }[] }) => m.actions.map((a) => a.type)),
        [['watch.created'], ['watch.updated'], ['watch.stood_down']],
      );
      assert.deepEqual(
        h.messages.map((m: { reply: string }) => m.reply),
        [first.reply, second.json().reply, third.reply],
      );
      assert.ok(h.messages.every((m: { status: string; id: string }) => m.status === 'completed' && /^msg_/.test(m.id)));
      assert.equal(h.message_count, 3);

      const newer = (await say(key, 'what does the driveway show?')).json();
      assert.equal(newer.actions[0].type, 'scene.described');
      const list = (await get(key, '/v1/conversations')).json();
      assert.deepEqual(
        list.data.map((c: { id: string }) => c.id),
        [newer.id, first.id],
        'newest first',
      );
    });

    test('one sentence, several requests: every action in order', async () => {
      const key = await t.householdKey();
      const body = (await say(key, 'watch the front porch tonight and mute the nursery camera')).json();
      assert.deepEqual(
        body.actions.map((a: { type: string }) => a.type),
        ['watch.created', 'sensor.muted'],
      );
      assert.equal(body.planner, 'offline');
    });

    test('a boundary binds every key of the household, including keys created later; no events come from it', async () => {
      const first = await t.householdKey({ name: 'Boundary Home' });
      const watch = (await say(first, 'watch the front porch tonight')).json().actions[0];
      assert.equal(watch.type, 'watch.created');
      const set = (await say(first, 'leave the front porch alone')).json();
      assert.equal(set.actions[0].type, 'boundary.set');
      const setAt = new Date(t.clock.now()).toISOString();

      const later = await t.householdKey({ name: 'Boundary Home' });
      assert.equal(later.tenant_id, first.tenant_id);
      for (const [key, message] of [
        [first, 'watch the front porch tonight'],
        [later, 'keep an eye on the front porch'],
        [later, 'what does the front porch show?'],
      ] as const) {
        const refused = (await say(key, message)).json();
        assert.deepEqual(refused.actions, [], message);
        assert.match(refused.reply, /leave the front porch alone/i);
      }
      const home = (await get(later, '/v1/household')).json();
      assert.equal(home.rooms.find((r: { name: string }) => r.name === 'front porch').left_alone, true);
      assert.equal(home.boundaries.length, 1);

      const withheld = t.ctx.pipeline.withheld;
      await t.advance(3 * HOUR);
      const porch = home.sensors.find((s: { name: string }) => s.name === 'Front porch camera').id;
      const seen = await t.ctx.database.db.selectFrom('detections').select('id').where('stream_id', '=', porch).where('at', '>', Date.parse(setAt)).execute();
      // boundaries on every read path changed this: a place left alone is not looked at, so nothing of it is recorded
      // (before, its detections were stored and only hidden from reads)
      assert.equal(seen.length, 0, 'nothing from the porch camera is recorded while it is left alone');
      assert.ok(t.ctx.pipeline.withheld > withheld, 'the simulated porch kept producing readings, which were dropped');
      for (const key of [first, later]) {
        const events = (await get(key, '/v1/events?limit=100')).json().data as { sensor_id: string | null; occurred_at: string; watch_id: string }[];
        assert.deepEqual(
          events.filter((e) => e.sensor_id === porch && e.occurred_at >= setAt),
          [],
        );
      }
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select('action')
        .where('tenant_id', '=', first.tenant_id)
        .where('action', '=', 'boundary.set')
        .execute();
      assert.equal(audit.length, 1);

      const lifted = (await say(later, 'you can watch the front porch again')).json();
      assert.equal(lifted.actions[0].type, 'boundary.cleared');
      const again = (await say(first, 'watch the front porch tonight')).json();
      assert.equal(again.actions[0].type, 'watch.created');
    });

    test('a muted sensor cannot be watched or described until it is unmuted', async () => {
      const key = await t.householdKey();
      const muted = (await say(key, 'mute the driveway camera')).json();
      assert.equal(muted.actions[0].type, 'sensor.muted');
      const refused = (await say(key, 'keep an eye on the driveway tonight')).json();
      assert.deepEqual(refused.actions, []);
      assert.match(refused.reply, /muted/);
      const home = (await get(key, '/v1/household')).json();
      assert.equal(home.sensors.find((s: { name: string }) => s.name === 'Driveway camera').muted, true);
      const events = (await get(key, '/v1/events?kind=sensor.muted')).json().data;
      assert.equal(events.length, 1);
      assert.equal((await say(key, 'unmute the driveway camera')).json().actions[0].type, 'sensor.unmuted');
      assert.equal((await say(key, 'keep an eye on the driveway tonight')).json().actions[0].type, 'watch.created');
    });

    test('bad input: empty or over-long message, unknown or foreign conversation, wrong surface', async () => {
      const key = await t.householdKey();
      for (const message of ['', '   ', 'x'.repeat(4001)]) {
        const r = await say(key, message);
        assert.equal(r.statusCode, 400, JSON.stringify(message.slice(0, 10)));
        assert.equal(r.json().param, 'message');
        assert.equal(r.json().code, 'validation_failed');
      }
      const missing = await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: {} });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().param, 'message');
      const mine = (await say(key, 'what does the garage show?')).json();
      const stranger = await t.householdKey();
      const foreign = await say(stranger, 'and the backyard?', mine.id);
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.json().param, 'conversation_id');
      assert.equal((await get(stranger, `/v1/conversations/${mine.id}`)).statusCode, 404);
      assert.equal((await say(key, 'hello', 'conv_00000000000000000000000000')).statusCode, 404);
      const org = await t.orgKey();
      const wrong = await say(org, 'watch the garage');
      assert.equal(wrong.statusCode, 403);
      assert.equal(wrong.json().code, 'wrong_surface');
    });

    test('a live key gets no simulated home, and the agent invents no sensor', async () => {
      const key = await t.householdKey({ mode: 'live' });
      const home = (await get(key, '/v1/household')).json();
      assert.deepEqual(home.sensors, []);
      const r = (await say(key, 'watch the garage tonight')).json();
      assert.deepEqual(r.actions, []);
      assert.deepEqual((await get(key, '/v1/watches')).json().data, []);
    });
    test('conversation.created first, each action before the words about it, completion carries the JSON body', async () => {
      const key = await t.householdKey();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/conversations',
        headers: { ...bearer(key), ...SSE },
        payload: { message: 'watch the garage tonight and mute the nursery camera' },
      });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/event-stream/);
      assert.ok(res.headers['x-request-id']);
      const frames = parseFrames(res.body);
      assert.equal(frames[0].event, 'conversation.created');
      assert.match(frames[0].data.conversation.id, /^conv_/);
      frames.forEach((f, i) => {
        assert.equal(f.data.type, f.event, 'data.type names the event');
        assert.equal(f.data.sequence_number, i);
        assert.equal(f.id, String(i));
      });
      const last = frames.at(-1)!;
      assert.equal(last.event, 'conversation.completed');
      const kinds = frames.map((f) => f.event);
      const actionAt = kinds.flatMap((k, i) => (k === 'action' ? [i] : []));
      assert.deepEqual(
        actionAt.map((i) => frames[i].data.action.type),
        ['watch.created', 'sensor.muted'],
      );
      // the words about the watch come after its action and before the mute; the mute's words after it
      const textBetween = frames
        .slice(actionAt[0], actionAt[1])
        .filter((f) => f.event === 'reply.delta')
        .map((f) => f.data.delta)
        .join('');
      assert.match(textBetween, /garage/);
      assert.doesNotMatch(textBetween, /muted/);
      const textAfter = frames
        .slice(actionAt[1])
        .filter((f) => f.event === 'reply.delta')
        .map((f) => f.data.delta)
        .join('');
      assert.match(textAfter, /muted/);
      assert.ok(actionAt[0] > 0 && !kinds.slice(0, actionAt[0]).includes('reply.delta'), 'no words before the first action');

      const body = last.data.conversation;
      assert.equal(body.id, frames[0].data.conversation.id);
      assert.equal(
        body.reply,
        frames
          .filter((f) => f.event === 'reply.delta')
          .map((f) => f.data.delta)
          .join(''),
      );
      assert.deepEqual(
        body.actions,
        actionAt.map((i) => frames[i].data.action),
      );
      const plain = (
        await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message: 'what does the garage show?' } })
      ).json();
      assert.deepEqual(Object.keys(body).sort(), Object.keys(plain).sort(), 'same shape as the JSON response');
      const history = (await t.app.inject({ url: `/v1/conversations/${body.id}`, headers: bearer(key) })).json();
      assert.deepEqual(history.messages[0].actions, body.actions);
      assert.equal(history.messages[0].status, 'completed');
    });

    test('a refused request streams its reason with no action frame; bad input is refused before any stream byte', async () => {
      const key = await t.householdKey();
      await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message: 'leave the nursery alone' } });
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/conversations',
        headers: { ...bearer(key), ...SSE },
        payload: { message: 'watch the nursery tonight' },
      });
      const frames = parseFrames(res.body);
      assert.deepEqual(
        frames.filter((f) => f.event === 'action'),
        [],
      );
      assert.match(frames.at(-1)!.data.conversation.reply, /leave the nursery alone/);
      const empty = await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: { ...bearer(key), ...SSE }, payload: { message: ' ' } });
      assert.equal(empty.statusCode, 400);
      assert.match(String(empty.headers['content-type']), /problem\+json/);
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/v1/conversations',
        headers: { ...bearer(key), ...SSE },
        payload: { message: 'hi', conversation_id: 'conv_00000000000000000000000000' },
      });
      assert.equal(foreign.statusCode, 404);
    });
    let base = '';
    interface OpenStream {
      status: number;
      text: () => string;
      firstFrame: Promise<void>;
      done: Promise<void>;
      request: http.ClientRequest;
    }

    /** Starts a streamed POST; resolves once the status line is in. */
    function openStream(key: { key: string }, message: string): Promise<OpenStream> {
      return new Promise((resolve, reject) => {
        const req = http.request(`${base}/v1/conversations`, {
          method: 'POST',
          agent: false,
          headers: { ...bearer(key), ...SSE, 'content-type': 'application/json' },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          let body = '';
          let onFirst: () => void = () => {};
          const firstFrame = new Promise<void>((r) => (onFirst = r));
          const done = new Promise<void>((r) => {
            res.on('end', r);
            res.on('close', r);
          });
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
            if (body.includes('\n\n')) onFirst();
          });
          res.on('error', () => {});
          resolve({ status: res.statusCode ?? 0, text: () => body, firstFrame, done, request: req });
        });
        req.end(JSON.stringify({ message }));
      });
    }

    async function waitFor(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
      for (let i = 0; i < 500 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(await cond(), `timed out waiting for ${what}`);
    }

    // real HTTP on one dialect: the limit is about sockets and bytes, not storage
    test(
      'the 11th stream gets 429 before any stream byte; a client that leaves frees its slot; taken actions stay',
      { skip: dialect !== 'sqlite' },
      async () => {
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
        gate.close();
        const key = await t.householdKey();
        // the first use provisions the home; do it outside the streams
        await t.app.inject({ url: '/v1/household', headers: bearer(key) });
        const open: OpenStream[] = [];
        for (let i = 0; i < 10; i++) open.push(await openStream(key, 'watch the garage tonight'));
        assert.deepEqual(
          open.map((s) => s.status),
          Array(10).fill(200),
        );
        await Promise.all(open.map((s) => s.firstFrame));
        assert.ok(open.every((s) => parseFrames(s.text())[0].event === 'conversation.created'));
        await waitFor(() => gate.waiting() === 10, 'ten planners at the gate');

        const eleventh = await openStream(key, 'watch the garage tonight');
        await eleventh.done;
        assert.equal(eleventh.status, 429);
        const problem = JSON.parse(eleventh.text());
        assert.equal(problem.code, 'concurrent_stream_limit_exceeded');
        assert.doesNotMatch(eleventh.text(), /conversation\.created/);
        assert.equal(await t.ctx.streamSlots.openCount(key.id), 10);

        // another key is not limited by this one's streams
        const otherKey = await t.householdKey();
        const other = await openStream(otherKey, 'what does the garage show?');
        assert.equal(other.status, 200);

        const leaving = open.shift()!;
        const leftId = parseFrames(leaving.text())[0].data.conversation.id as string;
        leaving.request.destroy();
        await waitFor(async () => (await t.ctx.streamSlots.openCount(key.id)) === 9, 'the slot of the closed stream to free');
        const replacement = await openStream(key, 'watch the garage tonight');
        assert.equal(replacement.status, 200);
        open.push(replacement);

        gate.open();
        await Promise.all([...open, other].map((s) => s.done));
        for (const s of open) assert.equal(parseFrames(s.text()).at(-1)!.event, 'conversation.completed');
        assert.equal(await t.ctx.streamSlots.openCount(key.id), 0);

        // the stream whose client left took no step after it left: its turn is interrupted, with no action
        const historyOf = async () => (await t.app.inject({ url: `/v1/conversations/${leftId}`, headers: bearer(key) })).json();
        let left = await historyOf();
        for (let i = 0; i < 200 && left.messages[0].status === 'in_progress'; i++) {
          await new Promise((r) => setTimeout(r, 10));
          left = await historyOf();
        }
        assert.equal(left.messages[0].status, 'interrupted');
        assert.deepEqual(left.messages[0].actions, []);
        const watches = (await t.app.inject({ url: '/v1/watches?limit=100', headers: bearer(key) })).json().data;
        assert.equal(watches.length, 10, 'one watch per completed stream, none from the one that left');
      },
    );
  });
}
