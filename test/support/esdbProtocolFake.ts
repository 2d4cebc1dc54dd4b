import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  Metadata,
  Server,
  ServerCredentials,
  type ServerDuplexStream,
  type ServerReadableStream,
  type ServerWritableStream,
  type ServiceError,
  type sendUnaryData,
  status,
} from '@grpc/grpc-js';

/*
 * The client's own generated service definitions and messages (node_modules/@eventstore/db-client/
 * generated), loaded through Node's require so they are the very modules the client uses: their
 * serializers check `instanceof` against them.
 */
const require = createRequire(import.meta.url);
type StreamsPb = typeof import('@eventstore/db-client/generated/streams_pb.js');
type SharedPb = typeof import('@eventstore/db-client/generated/shared_pb.js');
type FeaturesPb = typeof import('@eventstore/db-client/generated/serverfeatures_pb.js');
const streamsPb = require('@eventstore/db-client/generated/streams_pb.js') as StreamsPb;
const sharedPb = require('@eventstore/db-client/generated/shared_pb.js') as SharedPb;
const featuresPb = require('@eventstore/db-client/generated/serverfeatures_pb.js') as FeaturesPb;
const { StreamsService } =
  require('@eventstore/db-client/generated/streams_grpc_pb.js') as typeof import('@eventstore/db-client/generated/streams_grpc_pb.js');
const { ServerFeaturesService } =
  require('@eventstore/db-client/generated/serverfeatures_grpc_pb.js') as typeof import('@eventstore/db-client/generated/serverfeatures_grpc_pb.js');

type ReadReq = InstanceType<StreamsPb['ReadReq']>;
type ReadResp = InstanceType<StreamsPb['ReadResp']>;
type AppendReq = InstanceType<StreamsPb['AppendReq']>;
type AppendResp = InstanceType<StreamsPb['AppendResp']>;
type ProposedMessage = InstanceType<StreamsPb['AppendReq']['ProposedMessage']>;
type AppendOptions = InstanceType<StreamsPb['AppendReq']['Options']>;
type FilterOptions = InstanceType<StreamsPb['ReadReq']['Options']['FilterOptions']>;
type ReadOptions = InstanceType<StreamsPb['ReadReq']['Options']>;

interface StoredRecord {
  streamName: string;
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
  revision: bigint;
  position: bigint;
  /** .NET ticks, as the server sends them. */
  created: bigint;
}

/**
 * What the next call of a kind answers instead of doing its work:
 * - `notLeader`: the server's redirect to the leader (here: itself), before doing anything;
 * - `notReady`: "Server Is Not Ready", before doing anything;
 * - `answerLost`: an append is written, then the connection drops before the answer;
 * - `slow`: an append is written and answered `slowReplyMs` later (past a short client deadline).
 */
export type Fault = 'notLeader' | 'notReady' | 'answerLost' | 'slow';

const TICKS_AT_UNIX_EPOCH = 621_355_968_000_000_000n;
const DEFAULT_MAX_APPEND_SIZE = 1024 * 1024;
/** The revision of a tombstone record: the largest signed 64-bit number. */
const TOMBSTONE_REVISION = 9_223_372_036_854_775_807n;

/**
 * EventStoreDB at the protocol level: a gRPC server on loopback that answers the real
 * `@eventstore/db-client` (6.2.1) for the subset the adapter uses: server features, `Streams.Append`,
 * stream and `$all` reads, `$all` subscriptions (catch-up from a position or live from the end) with
 * a stream-prefix or event-type filter, checkpoints and "caught up", and streams an operator deleted
 * for good (`tombstone()`). It models what the in-memory client fake (fakeEsdb.ts) cannot: the client's own paths and
 * error handling. Like the server it keeps retries of `any`/`stream_exists` appends deduplicated only
 * while their ids are in a recent-id cache (`forgetRecentIds()`), refuses appends over its maximum
 * append size, and answers the faults queued with `failNext`. It advertises `BatchAppend` and fails
 * every such call, counting it: the adapter must never take that path.
 */
export class EsdbProtocolFake {
  private server = new Server();
  private readonly log: StoredRecord[] = [];
  private readonly streams = new Map<string, StoredRecord[]>();
  private readonly recentEventIds = new Set<string>();
  /** Streams deleted for good (`tombstone()`): reads and appends answer "stream deleted". */
  private readonly tombstoned = new Set<string>();
  private readonly liveSubscriptions = new Set<(record: StoredRecord) => void>();
  private readonly faults: { append: Fault[]; read: Fault[] } = { append: [], read: [] };
  private nextPosition = 1_000n;
  private port = 0;
  maxAppendSize = DEFAULT_MAX_APPEND_SIZE;
  slowReplyMs = 500;
  /** Calls answered, by method: what the client actually sent. */
  readonly calls = { append: 0, batchAppend: 0, read: 0, serverFeatures: 0 };
  /** `$all` reads (not subscriptions) answered, and the records they sent. */
  readonly allReads = { calls: 0, records: 0 };
  /** `$all` subscriptions opened, and the events and checkpoints they sent: what filtered feed reads cost. */
  readonly subscriptionReads = { calls: 0, events: 0, checkpoints: 0 };

  static async start(): Promise<EsdbProtocolFake> {
    const fake = new EsdbProtocolFake();
    await fake.listen();
    return fake;
  }

  /** Records on `$all`, system records included. */
  get recordCount(): number {
    return this.log.length;
  }

  get connectionString(): string {
    return `esdb://127.0.0.1:${this.port}?tls=false`;
  }

  /** The next `method` call answers `fault` instead (see Fault). */
  failNext(method: 'append' | 'read', fault: Fault): void {
    this.faults[method].push(fault);
  }

  /** A restart or leader change as appends see it: the recent-id cache is empty. */
  forgetRecentIds(): void {
    this.recentEventIds.clear();
  }

  /**
   * An operator's hard delete, as the server does it: a `$streamDeleted` record at the highest
   * revision ends the stream and goes on `$all` (the stream's events stay there until a scavenge);
   * from then on reads and appends of the stream answer "stream deleted".
   */
  tombstone(streamName: string): void {
    const record: StoredRecord = {
      streamName,
      id: randomUUID(),
      type: '$streamDeleted',
      contentType: 'application/octet-stream',
      data: new Uint8Array(),
      customMetadata: new Uint8Array(),
      revision: TOMBSTONE_REVISION,
      position: this.nextPosition,
      created: TICKS_AT_UNIX_EPOCH + BigInt(Date.now()) * 10_000n,
    };
    this.nextPosition += 137n;
    this.log.push(record);
    this.tombstoned.add(streamName);
    for (const deliver of this.liveSubscriptions) deliver(record);
  }

  async stop(): Promise<void> {
    this.server.forceShutdown();
  }

  /**
   * A server restart: every open call is cut, the port refuses connections for `downMs`, then the
   * same data is served again on the same port, with an empty recent-id cache.
   */
  async restart(downMs = 50): Promise<void> {
    this.server.forceShutdown();
    this.liveSubscriptions.clear();
    this.recentEventIds.clear();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    this.server = new Server();
    await this.listen(this.port);
  }

  private async listen(port = 0): Promise<void> {
    this.server.addService(ServerFeaturesService, {
      getSupportedMethods: (_call: unknown, callback: sendUnaryData<unknown>) => {
        this.calls.serverFeatures += 1;
        callback(null, this.supportedMethods());
      },
    });
    this.server.addService(StreamsService, {
      read: (call: ServerWritableStream<ReadReq, ReadResp>) => this.read(call),
      append: (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) =>
        this.append(call, callback),
      batchAppend: (call: ServerDuplexStream<unknown, unknown>) => {
        this.calls.batchAppend += 1;
        call.emit('error', serviceError(status.UNIMPLEMENTED, 'The adapter must not use BatchAppend'));
      },
      delete: unimplemented,
      tombstone: unimplemented,
    });
    this.port = await new Promise<number>((resolve, reject) => {
      this.server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      );
    });
  }

  private supportedMethods() {
    const methods = ['read', 'append', 'batchappend'].map((name) => {
      const method = new featuresPb.SupportedMethod();
      method.setServiceName('event_store.client.streams.streams');
      method.setMethodName(name);
      return method;
    });
    const supported = new featuresPb.SupportedMethods();
    supported.setMethodsList(methods);
    supported.setEventStoreServerVersion('24.10.6');
    return supported;
  }

  private faultError(fault: Fault): ServiceError {
    if (fault === 'notLeader') {
      return serviceError(status.NOT_FOUND, 'Leader info available', {
        exception: 'not-leader',
        'leader-endpoint-host': '127.0.0.1',
        'leader-endpoint-port': String(this.port),
      });
    }
    if (fault === 'notReady') return serviceError(status.UNAVAILABLE, 'Server Is Not Ready');
    return serviceError(status.UNAVAILABLE, 'Connection reset by peer');
  }

  private append(
    call: ServerReadableStream<AppendReq, AppendResp>,
    callback: sendUnaryData<AppendResp>,
  ): void {
    this.calls.append += 1;
    let options: AppendOptions | undefined;
    const proposed: ProposedMessage[] = [];
    call.on('data', (request: AppendReq) => {
      if (request.hasOptions()) options = request.getOptions();
      else if (request.hasProposedMessage()) proposed.push(request.getProposedMessage()!);
    });
    call.on('end', () => {
      const fault = this.faults.append.shift();
      if (fault === 'notLeader' || fault === 'notReady') return callback(this.faultError(fault));
      if (!options) return callback(serviceError(status.INVALID_ARGUMENT, 'No append options'));
      const target = streamNameOf(options.getStreamIdentifier()!);
      if (this.tombstoned.has(target)) return callback(streamDeleted(target));
      const size = proposed.reduce((sum, message) => sum + message.serializeBinary().length, 0);
      if (size > this.maxAppendSize) {
        return callback(
          serviceError(status.INVALID_ARGUMENT, `Maximum Append Size Of ${this.maxAppendSize} Exceeded.`, {
            exception: 'maximum-append-size-exceeded',
            'maximum-append-size': String(this.maxAppendSize),
          }),
        );
      }
      const answer = this.applyAppend(options, proposed);
      if (fault === 'answerLost') return callback(this.faultError(fault));
      if (fault === 'slow') {
        setTimeout(() => callback(null, answer), this.slowReplyMs);
        return;
      }
      callback(null, answer);
    });
  }

  private applyAppend(options: AppendOptions, proposed: ProposedMessage[]): AppendResp {
    const streamName = streamNameOf(options.getStreamIdentifier()!);
    const stream = this.streams.get(streamName) ?? [];
    const current = BigInt(stream.length) - 1n;
    const ids = proposed.map((message) => message.getId()!.getString());
    const response = new streamsPb.AppendResp();
    const conflict = () => {
      const wrong = new streamsPb.AppendResp.WrongExpectedVersion();
      if (current < 0n) wrong.setCurrentNoStream(new sharedPb.Empty());
      else wrong.setCurrentRevision(current.toString());
      if (options.hasRevision()) wrong.setExpectedRevision(options.getRevision());
      else if (options.hasNoStream()) wrong.setExpectedNoStream(new sharedPb.Empty());
      else if (options.hasStreamExists()) wrong.setExpectedStreamExists(new sharedPb.Empty());
      else wrong.setExpectedAny(new sharedPb.Empty());
      response.setWrongExpectedVersion(wrong);
      return response;
    };
    const alreadyThere = (lastRevision: bigint) => {
      const success = new streamsPb.AppendResp.Success();
      success.setCurrentRevision(lastRevision.toString());
      // As the server does for a recognised retry: no position.
      success.setNoPosition(new sharedPb.Empty());
      response.setSuccess(success);
      return response;
    };

    if (options.hasAny() || options.hasStreamExists()) {
      if (options.hasStreamExists() && current < 0n) return conflict();
      const cached = ids.map((id) =>
        this.recentEventIds.has(id) ? stream.find((record) => record.id === id) : undefined,
      );
      if (cached[0]) return cached.every(Boolean) ? alreadyThere(cached.at(-1)!.revision) : conflict();
    } else {
      const expected = options.hasNoStream() ? -1n : BigInt(options.getRevision());
      if (expected < current) {
        // The server reads the stream's events after the expected revision: no cache involved.
        const repeated = ids.every((id, i) => stream[Number(expected) + 1 + i]?.id === id);
        return repeated ? alreadyThere(expected + BigInt(ids.length)) : conflict();
      }
      if (expected > current) return conflict();
    }

    for (const message of proposed) {
      const metadata = message.getMetadataMap();
      const record: StoredRecord = {
        streamName,
        id: message.getId()!.getString(),
        type: metadata.get('type') ?? '',
        contentType: metadata.get('content-type') ?? 'application/octet-stream',
        data: message.getData_asU8(),
        customMetadata: message.getCustomMetadata_asU8(),
        revision: BigInt(stream.length),
        position: this.nextPosition,
        created: TICKS_AT_UNIX_EPOCH + BigInt(Date.now()) * 10_000n,
      };
      this.nextPosition += 137n;
      stream.push(record);
      this.log.push(record);
      this.recentEventIds.add(record.id);
      for (const deliver of this.liveSubscriptions) deliver(record);
    }
    this.streams.set(streamName, stream);
    const last = stream.at(-1)!;
    const success = new streamsPb.AppendResp.Success();
    success.setCurrentRevision(last.revision.toString());
    const position = new streamsPb.AppendResp.Position();
    position.setCommitPosition(last.position.toString());
    position.setPreparePosition(last.position.toString());
    success.setPosition(position);
    response.setSuccess(success);
    return response;
  }

  private read(call: ServerWritableStream<ReadReq, ReadResp>): void {
    this.calls.read += 1;
    const fault = this.faults.read.shift();
    if (fault) {
      call.emit('error', this.faultError(fault));
      return;
    }
    const options = call.request.getOptions()!;
    if (options.hasSubscription()) {
      this.subscribe(call, options);
      return;
    }
    const backwards = options.getReadDirection() === 1;
    const count = Number(options.getCount());
    let selected: StoredRecord[];
    if (options.hasStream()) {
      const streamOptions = options.getStream()!;
      const name = streamNameOf(streamOptions.getStreamIdentifier()!);
      if (this.tombstoned.has(name)) {
        call.emit('error', streamDeleted(name));
        return;
      }
      const stream = this.streams.get(name);
      if (!stream) {
        const notFound = new streamsPb.ReadResp.StreamNotFound();
        notFound.setStreamIdentifier(streamOptions.getStreamIdentifier());
        const response = new streamsPb.ReadResp();
        response.setStreamNotFound(notFound);
        call.write(response);
        call.end();
        return;
      }
      const from = streamOptions.hasRevision() ? BigInt(streamOptions.getRevision()) : null;
      selected = backwards
        ? stream.filter((record) => from === null || record.revision <= from).reverse()
        : stream.filter((record) => from === null || record.revision >= from);
    } else {
      const allOptions = options.getAll()!;
      const from = allOptions.hasPosition() ? BigInt(allOptions.getPosition()!.getCommitPosition()) : null;
      // Forwards from a position includes it, backwards excludes it, as the server does.
      selected = backwards
        ? this.log.filter((record) => from === null || record.position < from).reverse()
        : this.log.filter((record) => from === null || record.position >= from);
      this.allReads.calls += 1;
      this.allReads.records += Math.min(count, selected.length);
    }
    for (const record of selected.slice(0, count)) call.write(eventResponse(record));
    call.end();
  }

  /**
   * A `$all` subscription, as the server runs one: confirmation; from a position (exclusive) or the
   * start, the records already there that pass the filter, with a checkpoint every max search window
   * × checkpoint interval records passed over (32 × 1 unless the client says otherwise), then "caught
   * up"; from then on (or at once, from the end) every new record that passes, checkpoints likewise.
   * Only what is written to the client counts as its cost (`subscriptionReads`).
   */
  private subscribe(call: ServerWritableStream<ReadReq, ReadResp>, options: ReadOptions): void {
    const all = options.getAll();
    if (!all) {
      call.emit('error', serviceError(status.UNIMPLEMENTED, 'The fake only subscribes to $all'));
      return;
    }
    this.subscriptionReads.calls += 1;
    const filter = options.hasFilter() ? options.getFilter() : undefined;
    const matches = recordFilter(filter);
    const window = filter
      ? (filter.hasMax() ? filter.getMax() : 32) * Math.max(1, filter.getCheckpointintervalmultiplier())
      : 0;
    let passed = 0;
    const send = (response: ReadResp) => {
      if (response.hasEvent()) this.subscriptionReads.events += 1;
      else if (response.hasCheckpoint()) this.subscriptionReads.checkpoints += 1;
      call.write(response);
    };
    const offer = (record: StoredRecord) => {
      if (matches(record)) {
        send(eventResponse(record));
        passed = 0;
      } else if (window > 0 && ++passed >= window) {
        passed = 0;
        const checkpoint = new streamsPb.ReadResp.Checkpoint();
        checkpoint.setCommitPosition(record.position.toString());
        checkpoint.setPreparePosition(record.position.toString());
        const response = new streamsPb.ReadResp();
        response.setCheckpoint(checkpoint);
        send(response);
      }
    };
    const confirmation = new streamsPb.ReadResp.SubscriptionConfirmation();
    confirmation.setSubscriptionId(randomUUID());
    const confirmed = new streamsPb.ReadResp();
    confirmed.setConfirmation(confirmation);
    call.write(confirmed);
    if (!all.hasEnd()) {
      const from = all.hasPosition() ? BigInt(all.getPosition()!.getCommitPosition()) : null;
      for (const record of this.log) if (from === null || record.position > from) offer(record);
      const caughtUp = new streamsPb.ReadResp();
      caughtUp.setCaughtUp(new streamsPb.ReadResp.CaughtUp());
      call.write(caughtUp);
    }
    this.liveSubscriptions.add(offer);
    const end = () => this.liveSubscriptions.delete(offer);
    call.on('cancelled', end);
    call.on('close', end);
    call.on('error', end);
  }
}

function recordFilter(filter: FilterOptions | undefined): (record: StoredRecord) => boolean {
  if (!filter) return () => true;
  if (filter.hasStreamIdentifier()) {
    const prefixes = filter.getStreamIdentifier()!.getPrefixList();
    return (record) => prefixes.some((prefix) => record.streamName.startsWith(prefix));
  }
  const expression = filter.getEventType()!;
  const regex = expression.getRegex() ? new RegExp(expression.getRegex()) : null;
  const prefixes = expression.getPrefixList();
  return (record) =>
    regex ? regex.test(record.type) : prefixes.some((prefix) => record.type.startsWith(prefix));
}

function eventResponse(record: StoredRecord): ReadResp {
  const recorded = new streamsPb.ReadResp.ReadEvent.RecordedEvent();
  const id = new sharedPb.UUID();
  id.setString(record.id);
  recorded.setId(id);
  const identifier = new sharedPb.StreamIdentifier();
  identifier.setStreamName(Buffer.from(record.streamName, 'utf8'));
  recorded.setStreamIdentifier(identifier);
  recorded.setStreamRevision(record.revision.toString());
  recorded.setCommitPosition(record.position.toString());
  recorded.setPreparePosition(record.position.toString());
  const metadata = recorded.getMetadataMap();
  metadata.set('type', record.type);
  metadata.set('content-type', record.contentType);
  metadata.set('created', record.created.toString());
  recorded.setData(record.data);
  recorded.setCustomMetadata(record.customMetadata);
  const event = new streamsPb.ReadResp.ReadEvent();
  event.setEvent(recorded);
  event.setCommitPosition(record.position.toString());
  const response = new streamsPb.ReadResp();
  response.setEvent(event);
  return response;
}

function streamNameOf(identifier: InstanceType<SharedPb['StreamIdentifier']>): string {
  return Buffer.from(identifier.getStreamName_asU8()).toString('utf8');
}

/** The server's answer for a tombstoned stream, which the client raises as StreamDeletedError. */
function streamDeleted(streamName: string): ServiceError {
  return serviceError(status.FAILED_PRECONDITION, `Event stream '${streamName}' is deleted.`, {
    exception: 'stream-deleted',
    'stream-name': streamName,
  });
}

function serviceError(code: status, details: string, metadata: Record<string, string> = {}): ServiceError {
  const meta = new Metadata();
  for (const [key, value] of Object.entries(metadata)) meta.add(key, value);
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata: meta });
}

function unimplemented(_call: unknown, callback: sendUnaryData<unknown>): void {
  callback(serviceError(status.UNIMPLEMENTED, 'Not part of the fake'));
}
