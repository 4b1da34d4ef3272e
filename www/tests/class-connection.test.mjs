// A tab's membership of a class (www/engine/class-connection.js, the class worker's
// socket) against a real `meshmate relay`, from node: beats follow the socket, not a timer
// started before it opened; the lecturer's socket cut as a network would cut it is resumed
// with the token the relay gave it, and its class goes on; a tab that leaves is not brought
// back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RelayConnection } from '../engine/class-connection.js';
import { NodeWebSocket, eventLog, startProxy, startRelay } from './class-relay.mjs';

/** The relay's --lost-after-ms here: three beats. */
const LOST_AFTER_MS = 3000;

/**
 * Opens a membership (`hello`: create or join) at `url`; what it hears is kept in an
 * eventLog: the relay's control messages, and {type: 'dropped' | 'resumed' | 'closed' |
 * 'unreachable'} for what the connection itself reports.
 */
function member(url, hello) {
  const log = eventLog();
  const connection = new RelayConnection({
    url,
    hello,
    onControl: log.hear,
    onFrame: () => {},
    onError: (message) => log.hear({ type: 'unreachable', message }),
    onDropped: () => log.hear({ type: 'dropped' }),
    onResumed: () => log.hear({ type: 'resumed' }),
    onClosed: (reason) => log.hear({ type: 'closed', reason }),
    WebSocket: NodeWebSocket,
  });
  return { connection, events: log.events, next: log.next };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a tab\'s membership of a class, against the relay', () => {
  let relay = null;
  before(async () => {
    relay = await startRelay(['--lost-after-ms', String(LOST_AFTER_MS)]);
  });
  after(async () => relay?.stop());

  test('a student whose handshake took longer than a beat still beats, and is not dropped for silence', { timeout: 60000 }, async () => {
    const lecturer = member(relay.url, { type: 'create', token: relay.token });
    const { code } = await lecturer.next('created');
    // The relay's answer to the student's upgrade held 1.5 beats, as a slow network would.
    const slow = await startProxy(relay.port, { holdAnswerMs: 1500 });
    try {
      const student = member(`ws://127.0.0.1:${slow.port}/class`, { type: 'join', code });
      await student.next('joined');
      await lecturer.next('members', (m) => m.members.includes(1));
      await sleep(2 * LOST_AFTER_MS);
      assert.deepEqual(student.events.filter((e) => e.type === 'closed'), [], 'the student is still in the class');
      assert.deepEqual(lecturer.events.filter((e) => e.type === 'members').at(-1).members, [0, 1], 'the lecturer still has it');
      student.connection.leave();
      assert.match((await student.next('closed')).reason, /left/);
    } finally {
      lecturer.connection.leave();
      await slow.stop();
    }
  });

  test('the lecturer\'s socket cut during a search: the students hear it is away, it resumes, and the class searches on', { timeout: 60000 }, async () => {
    const line = await startProxy(relay.port);
    try {
      const lecturer = member(`ws://127.0.0.1:${line.port}/class`, { type: 'create', token: relay.token });
      const { code } = await lecturer.next('created');
      const students = [member(relay.url, { type: 'join', code }), member(relay.url, { type: 'join', code })];
      for (const s of students) await s.next('joined');
      await lecturer.next('members', (m) => m.members.length === 3);
      lecturer.connection.send({ type: 'start' });
      assert.equal((await lecturer.next('search')).processors, 3);
      for (const s of students) await s.next('search');

      line.cut(line.connections[0]);
      await lecturer.next('dropped');
      for (const s of students) {
        assert.equal((await s.next('lost')).processor, 0, 'the running search lost its processor 0');
        await s.next('ended');
        assert.equal((await s.next('away')).within_ms, 30000);
      }
      await lecturer.next('resumed');
      assert.ok(line.connections.length >= 2, 'it came back on a new connection');
      assert.deepEqual((await lecturer.next('members')).members, [0, 1, 2], 'the class is intact');

      lecturer.connection.send({ type: 'start' });
      const again = await lecturer.next('search');
      assert.deepEqual([again.search, again.processors], [2, 3], 'the next search runs on every member');
      for (const s of students) assert.equal((await s.next('search')).search, 2);
      assert.deepEqual([lecturer, ...students].flatMap((m) => m.events.filter((e) => e.type === 'closed' || e.type === 'error')), []);
      lecturer.connection.leave();
      for (const s of students) assert.match((await s.next('closed')).reason, /the owner left/);
      assert.deepEqual(lecturer.events.filter((e) => e.type === 'dropped'), [{ type: 'dropped' }], 'leaving is no drop');
    } finally {
      await line.stop();
    }
  });

  test('a student\'s socket that fails ends its membership: only the lecturer resumes', { timeout: 60000 }, async () => {
    const lecturer = member(relay.url, { type: 'create', token: relay.token });
    const { code } = await lecturer.next('created');
    const line = await startProxy(relay.port);
    try {
      const student = member(`ws://127.0.0.1:${line.port}/class`, { type: 'join', code });
      await student.next('joined');
      line.cut(line.connections[0]);
      await student.next('closed');
      assert.deepEqual(student.events.filter((e) => e.type === 'dropped'), []);
      assert.equal(line.connections.length, 1, 'no second connection');
    } finally {
      lecturer.connection.leave();
      await line.stop();
    }
  });
});
