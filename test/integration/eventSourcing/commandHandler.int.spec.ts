import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandHandler, type StreamType } from '../../../src/eventSourcing/commandHandler.js';
import { accept, type Decision, reject } from '../../../src/eventSourcing/decision.js';
import {
  AppendOutcomeUnknownError,
  type EventStore,
  WrongExpectedVersionError,
} from '../../../src/eventStore/eventStore.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

// A tally: the smallest stream type that shows what the handler does with state, ids and races.
type TallyEvent = { type: 'Added'; data: { amount: number } };
interface Tally {
  total: number;
  additions: number;
}

const tallies: StreamType<Tally, TallyEvent> = {
  category: 'tally',
  initialState: () => ({ total: 0, additions: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.amount, additions: state.additions + 1 }),
  toEvent: (recorded) => {
    if (recorded.type !== 'Added') throw new Error(`not a tally event: ${recorded.type}`);
    return { type: 'Added', data: recorded.data as { amount: number } };
  },
};
const handler = commandHandler(tallies);

const add =
  (...amounts: number[]) =>
  (_state: Tally): Decision<TallyEvent> =>
    accept(...amounts.map((amount): TallyEvent => ({ type: 'Added', data: { amount } })));

let nextRequest = 0;
/** The event ids of one request, the same on every attempt (as an Idempotency-Key's are). */
function requestIds(): (index: number) => string {
  const request = (++nextRequest).toString(16).padStart(8, '0');
  return (index) => `${request}-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
}

describe('the command handler', () => {
  let es: TestEventStore;
  beforeAll(async () => {
    es = await openTestEventStore();
  });
  afterAll(async () => {
    await es?.close();
  });

  it('appends what the decider decides, at the revision it read, and answers the new state', async () => {
    const ids = requestIds();
    const outcome = await handler.handle(es.store, 'a', add(2, 3), ids);
    expect(outcome).toEqual({
      ok: true,
      state: { total: 5, additions: 2 },
      appended: [
        { type: 'Added', data: { amount: 2 } },
        { type: 'Added', data: { amount: 3 } },
      ],
      alreadyApplied: false,
    });
    const read = await es.store.readStream('tally-a');
    expect(read.events.map((event) => event.id)).toEqual([ids(0), ids(1)]);
  });

  it('answers a retry of the same request as the first attempt left the stream, without deciding again', async () => {
    const ids = requestIds();
    await handler.handle(es.store, 'b', add(1, 1), ids);
    await handler.handle(es.store, 'b', add(10), requestIds());
    let decided = 0;
    const retry = await handler.handle(
      es.store,
      'b',
      (state) => {
        decided++;
        return add(1, 1)(state);
      },
      ids,
    );
    expect(decided).toBe(0);
    // Not the stream's state now (12): the state the first attempt's last event left.
    expect(retry).toEqual({
      ok: true,
      state: { total: 2, additions: 2 },
      appended: [],
      alreadyApplied: true,
    });
    expect((await es.store.readStream('tally-b')).events).toHaveLength(3);
  });

  describe('on a stream the caller read', () => {
    /** The store, counting the reads of streams. */
    function countingReads() {
      const reads = { count: 0 };
      const store = Object.assign(Object.create(es.store) as EventStore, {
        readStream(...args: Parameters<EventStore['readStream']>) {
          reads.count++;
          return es.store.readStream(...args);
        },
      });
      return { store, reads };
    }

    it('decides on it and appends at its revision without reading the stream again', async () => {
      await handler.handle(es.store, 'r1', add(1), requestIds());
      const read = await handler.load(es.store, 'r1');
      const { store, reads } = countingReads();
      const outcome = await handler.handle(store, 'r1', add(2), requestIds(), { read });
      expect(outcome).toMatchObject({ ok: true, state: { total: 3, additions: 2 } });
      expect(reads.count).toBe(0);
    });

    it('reads again and decides anew when another writer appended since', async () => {
      const read = await handler.load(es.store, 'r2');
      await handler.handle(es.store, 'r2', add(10), requestIds());
      const seen: number[] = [];
      const outcome = await handler.handle(
        es.store,
        'r2',
        (state) => {
          seen.push(state.total);
          return add(1)(state);
        },
        requestIds(),
        { read },
      );
      expect(seen).toEqual([0, 10]);
      expect(outcome).toMatchObject({ ok: true, state: { total: 11, additions: 2 } });
    });

    it('takes a rejection or no change only from the stream as it is now', async () => {
      const read = await handler.load(es.store, 'r3');
      await handler.handle(es.store, 'r3', add(5), requestIds());
      // Rejects an empty tally: the old read says empty, the stream says otherwise.
      const unlessTallied = (state: Tally): Decision<TallyEvent> =>
        state.total === 0 ? reject('conflict', 'nothing tallied yet') : add(1)(state);
      const outcome = await handler.handle(es.store, 'r3', unlessTallied, requestIds(), { read });
      expect(outcome).toMatchObject({ ok: true, state: { total: 6 } });
      const nothing = await handler.handle(es.store, 'r3', () => accept(), requestIds(), {
        read: await handler.load(es.store, 'r3'),
      });
      expect(nothing).toMatchObject({ ok: true, state: { total: 6 }, appended: [] });
    });
  });

  it('appends nothing for a rejection or an empty decision', async () => {
    const refused = await handler.handle(es.store, 'c', () => reject('conflict', 'no'), requestIds());
    expect(refused).toEqual({ ok: false, rejection: { code: 'conflict', message: 'no' } });
    const nothing = await handler.handle(es.store, 'c', () => accept(), requestIds());
    expect(nothing).toMatchObject({ ok: true, appended: [], alreadyApplied: false });
    expect((await es.store.readStream('tally-c')).revision).toBe(-1n);
  });

  it("decides again on the newer state when another process's writer appended first", async () => {
    const seen: number[] = [];
    const outcome = await handler.handle(
      overtakenStore(1),
      'd',
      (state) => {
        seen.push(state.total);
        return add(1)(state);
      },
      requestIds(),
    );
    expect(seen).toEqual([0, 100]);
    expect(outcome).toMatchObject({ ok: true, state: { total: 101, additions: 2 } });
  });

  it('gives up after ten lost races with the conflict itself, so the API answers 503', async () => {
    let decided = 0;
    const attempt = handler.handle(
      overtakenStore(Number.POSITIVE_INFINITY),
      'e',
      (state) => {
        decided++;
        return add(1)(state);
      },
      requestIds(),
    );
    await expect(attempt).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(decided).toBe(11);
  });

  describe('an append whose outcome was lost', () => {
    /** The store as a command sees it when the answer to an append is lost: written first, or not. */
    function answerLostStore(written: boolean, times = 1): EventStore {
      let lost = 0;
      return Object.assign(Object.create(es.store) as EventStore, {
        async appendToStream(...args: Parameters<EventStore['appendToStream']>) {
          if (lost++ >= times) return es.store.appendToStream(...args);
          if (written) await es.store.appendToStream(...args);
          throw new AppendOutcomeUnknownError(args[0]);
        },
      });
    }

    it('reads the stream again and answers as already applied when the append had landed', async () => {
      const ids = requestIds();
      let decided = 0;
      const outcome = await handler.handle(
        answerLostStore(true),
        'f',
        (state) => {
          decided++;
          return add(7)(state);
        },
        ids,
      );
      expect(outcome).toMatchObject({ ok: true, state: { total: 7, additions: 1 }, alreadyApplied: true });
      expect(decided).toBe(1);
      expect((await es.store.readStream('tally-f')).events.map((event) => event.id)).toEqual([ids(0)]);
    });

    it('decides again and appends once when it had not landed', async () => {
      const ids = requestIds();
      const outcome = await handler.handle(answerLostStore(false), 'g', add(5), ids);
      expect(outcome).toMatchObject({ ok: true, state: { total: 5, additions: 1 }, alreadyApplied: false });
      expect((await es.store.readStream('tally-g')).events.map((event) => event.id)).toEqual([ids(0)]);
    });

    it('gives up with the error after two lost outcomes in a row, so the API answers 503', async () => {
      await expect(
        handler.handle(answerLostStore(false, 3), 'h', add(1), requestIds()),
      ).rejects.toBeInstanceOf(AppendOutcomeUnknownError);
      expect((await es.store.readStream('tally-h')).exists).toBe(false);
    });
  });

  /**
   * The store as a command sees it when another process's writer (which takes no turn with this
   * process's commands) appends between the command's read and its append: the first `times`
   * appends are overtaken by one at the same expected revision.
   */
  function overtakenStore(times: number): EventStore {
    let overtaken = 0;
    return Object.assign(Object.create(es.store) as EventStore, {
      async appendToStream(...[stream, events, options]: Parameters<EventStore['appendToStream']>) {
        if (overtaken++ < times) {
          await es.store.appendToStream(
            stream,
            [{ id: requestIds()(0), type: 'Added', data: { amount: 100 } }],
            options,
          );
        }
        return es.store.appendToStream(stream, events, options);
      },
    });
  }
});
