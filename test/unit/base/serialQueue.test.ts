import * as assert from 'node:assert/strict';
import { KeyedSerialQueue } from '../../../src/extension/base/serialQueue';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Deterministic pseudo-random delays, so a failure can be reproduced. */
function delays(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % 7;
  };
}

describe('KeyedSerialQueue', () => {
  it('runs tasks of one key in submission order despite random async delays', async () => {
    const queue = new KeyedSerialQueue();
    const next = delays(42);
    const applied: number[] = [];
    const runs = Array.from({ length: 200 }, (_, i) =>
      queue.run('session', async () => {
        await sleep(next());
        applied.push(i);
      }),
    );
    await Promise.all(runs);
    assert.deepEqual(
      applied,
      Array.from({ length: 200 }, (_, i) => i),
    );
  });

  it('never runs two tasks of one key at once', async () => {
    const queue = new KeyedSerialQueue();
    const next = delays(7);
    let running = 0;
    let maxRunning = 0;
    await Promise.all(
      Array.from({ length: 50 }, () =>
        queue.run('k', async () => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await sleep(next());
          running--;
        }),
      ),
    );
    assert.equal(maxRunning, 1);
  });

  it('keeps different keys independent', async () => {
    const queue = new KeyedSerialQueue();
    const order: string[] = [];
    const slow = queue.run('a', async () => {
      await sleep(30);
      order.push('a');
    });
    const fast = queue.run('b', () => {
      order.push('b');
    });
    await Promise.all([slow, fast]);
    assert.deepEqual(order, ['b', 'a']);
  });

  it('interleaves keys while keeping each key ordered', async () => {
    const queue = new KeyedSerialQueue();
    const next = delays(3);
    const seen: Record<string, number[]> = { s1: [], s2: [], s3: [] };
    const runs: Promise<void>[] = [];
    for (let i = 0; i < 90; i++) {
      const key = `s${(i % 3) + 1}`;
      runs.push(
        queue.run(key, async () => {
          await sleep(next());
          seen[key].push(i);
        }),
      );
    }
    await Promise.all(runs);
    for (const list of Object.values(seen)) assert.deepEqual(list, [...list].sort((a, b) => a - b));
  });

  it('returns each task result and isolates failures', async () => {
    const queue = new KeyedSerialQueue();
    const first = queue.run('k', () => 1);
    const failing = queue.run('k', async () => {
      await sleep(1);
      throw new Error('boom');
    });
    const throwingSync = queue.run('k', () => {
      throw new Error('sync boom');
    });
    const after = queue.run('k', async () => 'still runs');
    assert.equal(await first, 1);
    await assert.rejects(failing, /boom/);
    await assert.rejects(throwingSync, /sync boom/);
    assert.equal(await after, 'still runs');
  });

  it('forgets a key once its tasks are done (no growth with many sessions)', async () => {
    const queue = new KeyedSerialQueue();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => queue.run(`session-${i}`, () => i)));
    await queue.idle('session-999');
    await sleep(0);
    assert.equal(queue.activeKeys, 0);
  });

  it('idle waits for what was submitted before', async () => {
    const queue = new KeyedSerialQueue();
    let done = false;
    void queue.run('k', async () => {
      await sleep(10);
      done = true;
    });
    await queue.idle('k');
    assert.equal(done, true);
  });

  it('runs a task at once when nothing of its key is queued or running (no microtask hop per update)', async () => {
    const queue = new KeyedSerialQueue();
    let ran = 0;
    const first = queue.run('k', () => ++ran);
    assert.equal(ran, 1, 'ran inside run()');
    assert.equal(await first, 1);
    const failing = queue.run('k', () => {
      throw new Error('sync boom');
    });
    await assert.rejects(failing, /sync boom/);
    assert.equal(await queue.run('k', () => ++ran), 2, 'a failure does not stop the next');
    assert.equal(queue.activeKeys, 0, 'synchronous tasks leave nothing behind');
  });

  it('runs what a task submits under its own key after that task, sync or async', async () => {
    const queue = new KeyedSerialQueue();
    const order: string[] = [];
    await queue.run('k', () => {
      void queue.run('k', () => order.push('inner of sync'));
      order.push('sync done');
    });
    await queue.idle('k');
    const outer = queue.run('k', async () => {
      void queue.run('k', () => order.push('inner of async'));
      await sleep(5);
      order.push('async done');
    });
    const after = queue.run('k', () => order.push('submitted after'));
    await Promise.all([outer, after, queue.idle('k')]);
    assert.deepEqual(order, ['sync done', 'inner of sync', 'async done', 'inner of async', 'submitted after']);
  });

  describe('submitWith (submit with arguments, for the per-update path)', () => {
    it('passes the key and arguments to the task, in order, at once or behind a running task', async () => {
      const queue = new KeyedSerialQueue();
      const applied: string[] = [];
      const errors: string[] = [];
      const apply = (key: string, what: string, n: number) => {
        if (n < 0) throw new Error(`${what} refused`);
        applied.push(`${key}:${what}:${n}`);
      };
      const onError = (key: string, error: unknown, what: string) => errors.push(`${key}/${what}: ${(error as Error).message}`);
      queue.submitWith('s', apply, 'a', 1, onError);
      assert.deepEqual(applied, ['s:a:1'], 'ran at once: nothing was queued under the key');
      let release!: () => void;
      const slow = queue.run('s', () => new Promise<void>((resolve) => (release = resolve)));
      queue.submitWith('s', apply, 'b', 2, onError);
      queue.submitWith('s', apply, 'bad', -1, onError);
      queue.submitWith('t', apply, 'c', 3, onError);
      queue.submitWith('s', apply, 'd', 4, onError);
      assert.deepEqual(applied, ['s:a:1', 't:c:3'], 'another key runs at once; this one waits');
      release();
      await slow;
      await queue.idle('s');
      assert.deepEqual(applied, ['s:a:1', 't:c:3', 's:b:2', 's:d:4']);
      assert.deepEqual(errors, ['s/bad: bad refused']);
      assert.equal(queue.activeKeys, 0);
    });

    it('reports a synchronous throw and an async rejection with the key and arguments', async () => {
      const queue = new KeyedSerialQueue();
      const errors: string[] = [];
      const onError = (key: string, error: unknown, what: string) => errors.push(`${key}/${what}: ${(error as Error).message}`);
      queue.submitWith(
        's',
        (_key, what: string) => {
          throw new Error(`${what} threw`);
        },
        'sync',
        0,
        onError,
      );
      queue.submitWith(
        's',
        async (_key, what: string) => {
          await Promise.resolve();
          throw new Error(`${what} rejected`);
        },
        'async',
        0,
        onError,
      );
      await queue.idle('s');
      await Promise.resolve();
      assert.deepEqual(errors, ['s/sync: sync threw', 's/async: async rejected']);
    });
  });

  describe('submit (fire and forget, errors to a callback)', () => {
    it('runs a synchronous task at once and reports its throw without stopping the next', async () => {
      const queue = new KeyedSerialQueue();
      const applied: number[] = [];
      const errors: string[] = [];
      const onError = (error: unknown) => errors.push((error as Error).message);
      queue.submit('s', () => applied.push(1), onError);
      queue.submit(
        's',
        () => {
          throw new Error('bad update');
        },
        onError,
      );
      queue.submit('s', () => applied.push(3), onError);
      // At once, not a microtask later: nothing was queued under the key.
      assert.deepEqual(applied, [1, 3]);
      assert.deepEqual(errors, ['bad update']);
      assert.equal(queue.activeKeys, 0);
      await queue.idle('s');
    });

    it('keeps submission order with run and submit mixed, while an async task runs', async () => {
      const queue = new KeyedSerialQueue();
      const applied: string[] = [];
      const errors: string[] = [];
      const onError = (error: unknown) => errors.push((error as Error).message);
      let release!: () => void;
      const slow = queue.run('s', async () => {
        await new Promise<void>((resolve) => (release = resolve));
        applied.push('slow');
      });
      queue.submit('s', () => applied.push('a'), onError);
      queue.submit(
        's',
        async () => {
          await Promise.resolve();
          throw new Error('async failure');
        },
        onError,
      );
      const after = queue.run('s', () => applied.push('b'));
      queue.submit('s', () => applied.push('c'), onError);
      assert.deepEqual(applied, [], 'nothing runs ahead of the task that is running');
      release();
      await slow;
      await after;
      await queue.idle('s');
      assert.deepEqual(applied, ['slow', 'a', 'b', 'c']);
      assert.deepEqual(errors, ['async failure']);
      assert.equal(queue.activeKeys, 0);
    });

    it('runs what a submitted task submits under its own key after it, even when it throws', async () => {
      const queue = new KeyedSerialQueue();
      const applied: string[] = [];
      const errors: string[] = [];
      const onError = (error: unknown) => errors.push((error as Error).message);
      queue.submit(
        's',
        () => {
          queue.submit('s', () => applied.push('inner'), onError);
          queue.submit('other', () => applied.push('other key'), onError);
          applied.push('outer');
          throw new Error('outer failed');
        },
        onError,
      );
      assert.deepEqual(applied, ['other key', 'outer']);
      await queue.idle('s');
      assert.deepEqual(applied, ['other key', 'outer', 'inner']);
      assert.deepEqual(errors, ['outer failed']);
    });

    it('an async submitted task holds later tasks of its key until it settles', async () => {
      const queue = new KeyedSerialQueue();
      const applied: string[] = [];
      let release!: () => void;
      queue.submit(
        's',
        async () => {
          await new Promise<void>((resolve) => (release = resolve));
          applied.push('first');
        },
        () => undefined,
      );
      queue.submit('s', () => applied.push('second'), () => undefined);
      await Promise.resolve();
      assert.deepEqual(applied, []);
      release();
      await queue.idle('s');
      assert.deepEqual(applied, ['first', 'second']);
    });
  });
});
