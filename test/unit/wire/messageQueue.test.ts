import * as assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { MessageQueue, type MessageQueueController } from '../../../src/extension/wire/messageQueue';

/** A queue with its controller and a record of the source's cancel calls. */
function queue<T>() {
  let controller!: MessageQueueController<T>;
  const cancelled: unknown[] = [];
  const stream = new MessageQueue<T>({ start: (c) => (controller = c), cancel: (reason) => cancelled.push(reason) });
  return { stream, controller, cancelled };
}

/** Whether `promise` is still pending once queued callbacks have run. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

describe('MessageQueue (the agent’s parsed messages, read by the ACP SDK)', () => {
  it('delivers messages in order, queued before the read or arriving while it waits', async () => {
    const { stream, controller } = queue<number>();
    controller.enqueue(1);
    controller.enqueue(2);
    const reader = stream.getReader();
    assert.deepEqual(await reader.read(), { done: false, value: 1 });
    assert.deepEqual(await reader.read(), { done: false, value: 2 });
    const waiting = reader.read();
    assert.equal(await pending(waiting), true, 'a read with nothing queued waits');
    controller.enqueue(3);
    controller.enqueue(4);
    assert.deepEqual(await waiting, { done: false, value: 3 });
    assert.deepEqual(await reader.read(), { done: false, value: 4 });
    assert.equal(stream.queued, 0);
  });

  it('keeps the order across thousands of messages read one at a time', async () => {
    const { stream, controller } = queue<number>();
    for (let i = 0; i < 5000; i++) controller.enqueue(i);
    controller.close();
    const reader = stream.getReader();
    const seen: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen.push(value);
    }
    assert.deepEqual(seen, Array.from({ length: 5000 }, (_, i) => i));
  });

  it('ends after the messages queued before close, and settles the reader’s closed then', async () => {
    const { stream, controller } = queue<string>();
    const reader = stream.getReader();
    controller.enqueue('a');
    controller.close();
    controller.enqueue('ignored after close');
    assert.equal(await pending(reader.closed), true, 'not closed while a message is unread');
    assert.deepEqual(await reader.read(), { done: false, value: 'a' });
    assert.deepEqual(await reader.read(), { done: true, value: undefined });
    await reader.closed;
    // A read waiting when the stream closes ends too.
    const other = queue<string>();
    const waiting = other.stream.getReader().read();
    other.controller.close();
    assert.deepEqual(await waiting, { done: true, value: undefined });
  });

  it('fails waiting and later reads with the error, dropping what was queued', async () => {
    const { stream, controller } = queue<string>();
    const reader = stream.getReader();
    const failure = new Error('line too long');
    const waiting = reader.read();
    controller.error(failure);
    await assert.rejects(waiting, (error) => error === failure);
    const again = queue<string>();
    again.controller.enqueue('lost');
    again.controller.error(failure);
    const againReader = again.stream.getReader();
    await assert.rejects(againReader.read(), (error) => error === failure);
    await assert.rejects(againReader.closed, (error) => error === failure);
  });

  it('on cancel tells the source, ends reads as done and ignores later messages', async () => {
    const { stream, controller, cancelled } = queue<string>();
    controller.enqueue('dropped');
    const reader = stream.getReader();
    assert.deepEqual(await reader.read(), { done: false, value: 'dropped' });
    const waiting = reader.read();
    const reason = new Error('connection closed');
    await reader.cancel(reason);
    assert.deepEqual(cancelled, [reason]);
    assert.deepEqual(await waiting, { done: true, value: undefined });
    controller.enqueue('after cancel');
    assert.deepEqual(await reader.read(), { done: true, value: undefined });
  });

  it('locks to one reader until it is released; a read waiting at the release fails', async () => {
    const { stream, controller } = queue<number>();
    const reader = stream.getReader();
    assert.equal(stream.locked, true);
    assert.throws(() => stream.getReader(), /already locked/);
    await assert.rejects(stream.cancel(), /locked/);
    const waiting = reader.read();
    reader.releaseLock();
    await assert.rejects(waiting, /released/);
    await assert.rejects(reader.read(), /released/);
    assert.equal(stream.locked, false);
    controller.enqueue(7);
    assert.deepEqual(await stream.getReader().read(), { done: false, value: 7 });
  });

  it('says clearly what it does not implement instead of misbehaving', () => {
    const { stream } = queue<number>();
    assert.throws(() => stream.pipeTo(), /does not support pipeTo/);
    assert.throws(() => stream.tee(), /does not support tee/);
    assert.throws(() => stream[Symbol.asyncIterator](), /does not support async iteration/);
    assert.throws(() => stream.getReader({ mode: 'byob' }), /no "byob" reader/);
  });

  it('is read by the real ACP SDK: notifications in order, and closing the connection cancels it', async () => {
    const { stream, controller, cancelled } = queue<acp.AnyMessage>();
    const received: unknown[] = [];
    let done!: () => void;
    const allReceived = new Promise<void>((resolve) => (done = resolve));
    const app = acp.client({ name: 'message-queue-test' }).onNotification(
      acp.methods.client.session.update,
      (params: unknown) => params as acp.SessionNotification,
      ({ params }) => {
        const update = params.update as { content?: { text?: string } };
        received.push(update.content?.text);
        if (received.length === 3) done();
      },
    );
    const connection = app.connect({ readable: stream.asReadableStream(), writable: new WritableStream<acp.AnyMessage>() });
    for (let n = 1; n <= 3; n++) {
      controller.enqueue({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${n}` } } } } as acp.AnyMessage);
    }
    await allReceived;
    assert.deepEqual(received, ['1', '2', '3']);
    connection.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(cancelled.length, 1, "the SDK cancels the reader when the connection closes (messageStream then stops delivering)");
  });
});
