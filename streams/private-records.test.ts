// @vitest-environment node
import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import {
  createPrivateRecordStream,
  type PrivateRecord,
  type PrivateRecordsSource,
  RecordBook,
  type RecordKind,
} from './private-records';
import type { ConnectionState, PrivateTopicMessage } from './socket';

/** A record kind of the tests' own: what spot orders and option contracts have in common, nothing more. */
interface Note extends PrivateRecord {
  state: 'open' | 'done';
}
type NoteMessage = { kind: 'snapshot'; notes: Note[] } | { kind: 'note'; note: Note };
type NoteChange = { kind: 'note'; note: Note } | { kind: 'closed' };

const note = (id: number, state: Note['state'], updatedAt: number): Note => ({
  id,
  state,
  created_at: id * 10,
  updated_at: updatedAt,
});
const isOpen = (n: Note) => n.state === 'open';

const notes: RecordKind<Note, NoteMessage, NoteChange> = {
  topic: 'notes',
  schema: z.custom<NoteMessage>(),
  read: (m) => (m.kind === 'snapshot' ? { open: m.notes } : { record: m.note }),
  isOpen,
  change: (n) => ({ kind: 'note', note: n }),
};

/** The socket as a record stream sees it: the test plays the server's private topic messages and the connection. */
class FakeSource implements PrivateRecordsSource {
  readonly state = new BehaviorSubject<ConnectionState>('connected');
  readonly state$ = this.state;
  readonly topic = new Subject<PrivateTopicMessage<unknown>>();
  readonly names: string[] = [];
  private seq = 0;

  privateTopic<T>(name: string, _schema: z.ZodMiniType<T>): Observable<PrivateTopicMessage<T>> {
    this.names.push(name);
    return this.topic as unknown as Observable<PrivateTopicMessage<T>>;
  }

  send(data: NoteMessage, ts: number): void {
    this.topic.next({ kind: data.kind === 'snapshot' ? 'snapshot' : 'update', seq: this.seq++, ts, data });
  }
}

describe('the record book', () => {
  it('keeps the newer update per record and drops repeats and late news', () => {
    const book = new RecordBook<Note>(isOpen);
    expect(book.take(note(1, 'open', 10))).toBe(true);
    expect(book.take(note(1, 'open', 10))).toBe(false);
    expect(book.take(note(1, 'open', 20))).toBe(true);
    expect(book.take(note(1, 'done', 15))).toBe(false);
    expect(book.open().map((n) => n.updated_at)).toEqual([20]);
    expect(book.take(note(1, 'done', 30))).toBe(true);
    expect(book.open()).toEqual([]);
  });

  it('drops open records a full list no longer holds, unless they changed after the list was made', () => {
    const book = new RecordBook<Note>(isOpen);
    book.take(note(1, 'open', 10));
    book.take(note(2, 'open', 50));
    const { dropped } = book.takeOpenList([], 40);
    expect(dropped).toEqual([1]);
    // Record 2 was created after the list was asked for: it stays.
    expect(book.open().map((n) => n.id)).toEqual([2]);
  });
});

describe('the private record stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(polls: (readonly Note[] | false)[], fetchOne?: (id: number) => Promise<Note | false>) {
    const source = new FakeSource();
    const poll = vi.fn(async () => polls.shift() ?? false);
    let clock = 1_000;
    const stream = createPrivateRecordStream(notes, {
      source,
      poll,
      pollWhileUpMs: 30_000,
      pollWhileDownMs: 2_000,
      now: () => clock,
      ...(fetchOne ? { fetchOne } : {}),
    });
    const open: Note[][] = [];
    const changes: NoteChange[] = [];
    const subs = [stream.changes$.subscribe((c) => changes.push(c)), stream.open$.subscribe((o) => open.push(o))];
    return {
      source,
      poll,
      open,
      changes,
      setClock: (t: number) => {
        clock = t;
      },
      stop: () => {
        for (const s of subs) s.unsubscribe();
      },
    };
  }

  const ids = (list: Note[] | undefined) => list?.map((n) => n.id);

  it("subscribes to the kind's topic, merges it with the poll and drops duplicates", async () => {
    const t = setup([[note(1, 'open', 100), note(3, 'open', 90)]]);
    expect(t.source.names).toEqual(['notes']);
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(t.open.at(-1))).toEqual([3, 1]);
    // The snapshot repeats records 1 and 3 and brings 2.
    t.source.send({ kind: 'snapshot', notes: [note(1, 'open', 100), note(2, 'open', 120), note(3, 'open', 90)] }, 130);
    expect(ids(t.open.at(-1))).toEqual([3, 2, 1]);
    // Record 1 changes, then closes; the same update again is dropped.
    t.source.send({ kind: 'note', note: note(1, 'open', 150) }, 150);
    t.source.send({ kind: 'note', note: note(1, 'done', 200) }, 200);
    t.source.send({ kind: 'note', note: note(1, 'done', 200) }, 201);
    expect(ids(t.open.at(-1))).toEqual([3, 2]);
    expect(t.changes.map((c) => (c.kind === 'note' ? `${c.note.id}:${c.note.updated_at}` : c.kind))).toEqual([
      '1:100',
      '3:90',
      '2:120',
      '1:150',
      '1:200',
    ]);
    t.stop();
  });

  it('a poll older than a socket update does not bring a closed record back', async () => {
    const t = setup([[], [note(4, 'open', 100)]]);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.open.at(-1)).toEqual([]);
    t.source.send({ kind: 'note', note: note(4, 'open', 100) }, 100);
    t.source.send({ kind: 'note', note: note(4, 'done', 300) }, 300);
    t.setClock(400);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(t.poll).toHaveBeenCalledTimes(2);
    expect(t.open.at(-1)).toEqual([]);
    t.stop();
  });

  it('polls often while the socket is down and reports records that closed unseen', async () => {
    const t = setup([[note(5, 'open', 100)], [], []]);
    t.source.state.next('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(t.open.at(-1))).toEqual([5]);
    t.setClock(5_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(t.poll.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(t.open.at(-1)).toEqual([]);
    expect(t.changes.at(-1)).toEqual({ kind: 'closed' });
    t.stop();
  });

  it('asks for the end of a record that left unseen and reports it as its change', async () => {
    const fetchOne = vi.fn(async (id: number) => (id === 6 ? note(6, 'done', 4_000) : false));
    const t = setup([[note(6, 'open', 100), note(7, 'open', 100)], []], fetchOne);
    t.source.state.next('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(t.open.at(-1))).toEqual([7, 6]);
    // Both closed while the socket was down; the next poll lacks them.
    t.setClock(5_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchOne.mock.calls.map(([id]) => id).sort()).toEqual([6, 7]);
    const said = t.changes.map((c) => (c.kind === 'note' ? `${c.note.id}:${c.note.state}` : c.kind));
    // Record 6's end is known; record 7's call failed, so only "closed" speaks for it.
    expect(said.slice(-2)).toEqual(['closed', '6:done']);
    // The same end pushed late by the socket is a repeat, not news.
    t.source.send({ kind: 'note', note: note(6, 'done', 4_000) }, 6_000);
    expect(t.changes.filter((c) => c.kind === 'note' && c.note.id === 6 && c.note.state === 'done')).toHaveLength(1);
    t.stop();
  });

  it('does not take a record the info call still calls open', async () => {
    const fetchOne = vi.fn(async () => note(8, 'open', 150));
    const t = setup([[note(8, 'open', 100)], []], fetchOne);
    t.source.state.next('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    t.setClock(5_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchOne).toHaveBeenCalledWith(8);
    expect(t.changes.some((c) => c.kind === 'note' && c.note.updated_at === 150)).toBe(false);
    t.stop();
  });

  it('asks one call at a time, and takes nothing once nobody observes the stream', async () => {
    let answer: ((n: Note) => void) | undefined;
    const fetchOne = vi.fn(
      (id: number) =>
        new Promise<Note | false>((resolve) => {
          answer = () => resolve(note(id, 'done', 4_000));
        }),
    );
    const t = setup([[note(1, 'open', 100), note(2, 'open', 100)], []], fetchOne);
    t.source.state.next('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    t.setClock(5_000);
    await vi.advanceTimersByTimeAsync(2_000);
    // Two records left unseen; the second call waits for the first.
    expect(fetchOne).toHaveBeenCalledTimes(1);
    t.stop();
    answer?.(note(0, 'done', 0));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.changes.filter((c) => c.kind === 'note' && c.note.state === 'done')).toEqual([]);
    expect(fetchOne).toHaveBeenCalledTimes(1);
  });

  it('an empty first list, polled or pushed, still tells the view it is loaded; a failed poll changes nothing', async () => {
    const polled = setup([[]]);
    await vi.advanceTimersByTimeAsync(0);
    expect(polled.open).toEqual([[]]);
    polled.stop();

    const pushed = setup([false]);
    await vi.advanceTimersByTimeAsync(0);
    expect(pushed.open).toEqual([]);
    pushed.source.send({ kind: 'snapshot', notes: [] }, 10);
    expect(pushed.open).toEqual([[]]);
    pushed.stop();
  });
});
