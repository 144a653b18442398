import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { resolveNodeId } from '../config/index.ts';
import { droppedLogLines } from '../lib/index.ts';

/** Stream statuses as the API names them (org/streams), kept here as plain strings: platform does not import org. */
type StreamStatus = string;

/**
 * The process's Prometheus metrics, served by GET /metrics. One set per process,
 * because a process is one scrape target: code anywhere records with a one-line call
 * (`metrics().detectorFrame(ms)`) without a dependency being threaded through it. Every series
 * carries `node_id`. Figures that live elsewhere (the webhook queue in the database, the streams
 * this node runs) are read when scraped, from sources registered with `watch*`.
 */
export class VigilMetrics {
  readonly registry = new Registry();
  readonly nodeId: string;

  readonly detections: Counter<'type'>;
  private readonly detectionsByType = new Map<string, Counter.Internal>();
  readonly pipelineLatency: Histogram;
  readonly detectorFrames: Counter;
  readonly inferenceLatency: Histogram;
  readonly streamReconnects: Counter;
  readonly leasesHeld: Gauge;
  readonly webhookAttempts: Counter<'outcome'>;
  readonly rateLimitRejections: Counter<'policy'>;
  readonly sseStreamsOpen: Gauge;
  readonly redisFallbacks: Counter<'store'>;

  private readonly streamStatuses = new Map<string, StreamStatus>();
  private readonly queueDepthSources = new Set<() => Promise<number>>();
  private readonly redisSources = new Set<() => boolean>();

  constructor(nodeId: string) {
    this.nodeId = nodeId;
    const registers = [this.registry];
    this.registry.setDefaultLabels({ node_id: nodeId });
    // process CPU, memory, GC and event-loop lag (nodejs_eventloop_lag_seconds, …_p99)
    collectDefaultMetrics({ register: this.registry });

    // registered in this order, which is the order of the exposition
    const detector = detectorMetrics(registers);
    this.detections = detector.detections;
    this.pipelineLatency = detector.pipelineLatency;
    this.detectorFrames = detector.detectorFrames;
    this.inferenceLatency = detector.inferenceLatency;
    const streams = streamMetrics(registers, this.streamStatuses);
    this.streamReconnects = streams.streamReconnects;
    this.leasesHeld = streams.leasesHeld;
    this.webhookAttempts = webhookMetrics(registers, this.queueDepthSources).webhookAttempts;
    const requests = requestMetrics(registers);
    this.rateLimitRejections = requests.rateLimitRejections;
    this.sseStreamsOpen = requests.sseStreamsOpen;
    this.redisFallbacks = redisAndLogMetrics(registers, this.redisSources).redisFallbacks;
  }

  /**
   * A commit made these ingest calls durable at `now` (performance.now()), each entered the pipeline
   * at its `enteredAt`: one latency observation per call that stored something, the detections
   * counted per type once per commit.
   */
  detectionsCommitted(calls: readonly { records: readonly { type: string }[]; enteredAt: number }[], now: number): void {
    const perType = new Map<string, number>();
    for (const { records, enteredAt } of calls) {
      if (records.length === 0) continue;
      for (const { type } of records) perType.set(type, (perType.get(type) ?? 0) + 1);
      this.pipelineLatency.observe((now - enteredAt) / 1000);
    }
    for (const [type, n] of perType) {
      // one labelled child per type, kept: inc({ type }) hashes the labels on every call
      let child = this.detectionsByType.get(type);
      if (!child) this.detectionsByType.set(type, (child = this.detections.labels(type)));
      child.inc(n);
    }
  }

  detectorFrame(inferenceMs: number): void {
    this.detectorFrames.inc();
    this.inferenceLatency.observe(inferenceMs / 1000);
  }

  /** A stream's source on this node changed status; null when it stopped running here. */
  streamStatus(streamId: string, status: StreamStatus | null): void {
    if (status === null) this.streamStatuses.delete(streamId);
    else this.streamStatuses.set(streamId, status);
  }

  /** For the cluster's lease holder: how many stream leases this node holds now. */
  setLeasesHeld(n: number): void {
    this.leasesHeld.set(n);
  }

  /** Registers a reader of the webhook queue depth; returns its removal. */
  watchWebhookQueue(read: () => Promise<number>): () => void {
    this.queueDepthSources.add(read);
    return () => void this.queueDepthSources.delete(read);
  }

  /** Registers whether Redis is reachable; returns its removal. */
  watchRedis(up: () => boolean): () => void {
    this.redisSources.add(up);
    return () => void this.redisSources.delete(up);
  }

  /** The Prometheus text exposition. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** The detection pipeline and the object detector: detections made durable, their latency, frames, inference time. */
function detectorMetrics(registers: Registry[]) {
  const detections = new Counter({
    name: 'vigil_detections_total',
    help: 'Detections made durable by the pipeline, by type (rate() gives detections/s)',
    labelNames: ['type'],
    registers,
  });
  const pipelineLatency = new Histogram({
    name: 'vigil_pipeline_latency_seconds',
    help: 'From a batch of detections entering the pipeline to it being durable',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const detectorFrames = new Counter({ name: 'vigil_detector_frames_total', help: 'Frames the object detector finished (rate() gives frames/s)', registers });
  const inferenceLatency = new Histogram({
    name: 'vigil_detector_inference_seconds',
    help: 'Object-detector inference time per frame',
    buckets: [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2],
    registers,
  });
  return { detections, pipelineLatency, detectorFrames, inferenceLatency };
}

/** The streams this node runs, by status (read from `statuses` when scraped), their reconnects and the leases held. */
function streamMetrics(registers: Registry[], statuses: ReadonlyMap<string, StreamStatus>) {
  new Gauge({
    name: 'vigil_streams',
    help: 'Streams whose source runs on this node, by status',
    labelNames: ['status'],
    registers,
    collect() {
      this.reset();
      const counts = new Map<string, number>();
      for (const s of statuses.values()) counts.set(s, (counts.get(s) ?? 0) + 1);
      for (const [status, n] of counts) this.set({ status }, n);
    },
  });
  const streamReconnects = new Counter({ name: 'vigil_stream_reconnects_total', help: 'Times a real stream lost its source and reconnected', registers });
  const leasesHeld = new Gauge({ name: 'vigil_stream_leases_held', help: 'Stream ownership leases this node holds', registers });
  return { streamReconnects, leasesHeld };
}

/** The webhook queue's depth (read from `queueSources` when scraped) and delivery attempts. */
function webhookMetrics(registers: Registry[], queueSources: ReadonlySet<() => Promise<number>>) {
  new Gauge({
    name: 'vigil_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent (pending or scheduled for a retry)',
    registers,
    async collect() {
      let total = 0;
      for (const read of queueSources) total += await read().catch(() => 0);
      this.set(total);
    },
  });
  const webhookAttempts = new Counter({
    name: 'vigil_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'],
    registers,
  });
  return { webhookAttempts };
}

/** Requests refused by a rate limit, and the server-sent event streams open. */
function requestMetrics(registers: Registry[]) {
  const rateLimitRejections = new Counter({
    name: 'vigil_rate_limit_rejections_total',
    help: 'Requests answered 429 by a rate limit, by policy',
    labelNames: ['policy'],
    registers,
  });
  const sseStreamsOpen = new Gauge({ name: 'vigil_sse_streams_open', help: 'Server-sent event streams open on this node', registers });
  return { rateLimitRejections, sseStreamsOpen };
}

/** Redis fallbacks, log lines dropped, and whether Redis is reachable (read from `redisSources` when scraped). */
function redisAndLogMetrics(registers: Registry[], redisSources: ReadonlySet<() => boolean>) {
  const redisFallbacks = new Counter({
    name: 'vigil_redis_fallbacks_total',
    help: 'Calls answered by this node alone because Redis was unreachable, by store',
    labelNames: ['store'],
    registers,
  });
  new Counter({
    name: 'vigil_log_lines_dropped_total',
    help: 'Process log lines dropped because standard output did not take them (a stalled reader); requests are never held for them',
    registers,
    collect() {
      this.reset();
      this.inc(droppedLogLines());
    },
  });
  new Gauge({
    name: 'vigil_redis_up',
    help: '1 when this node reaches Redis (absent when no REDIS_URL is configured)',
    registers,
    collect() {
      this.reset();
      for (const up of redisSources) this.set(up() ? 1 : 0);
    },
  });
  return { redisFallbacks };
}

let instance: VigilMetrics | null = null;

/** The process's metrics, made on first use with this process's node id. */
export function metrics(): VigilMetrics {
  instance ??= new VigilMetrics(resolveNodeId());
  return instance;
}
