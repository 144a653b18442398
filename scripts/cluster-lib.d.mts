import type { ChildProcess } from 'node:child_process';

export interface ClusterNode {
  id: string;
  port: number;
  url: string;
  role: 'all' | 'api' | 'worker';
  env: Record<string, string | undefined>;
  proc: ChildProcess;
  readonly pid: number | undefined;
  readonly running: boolean;
  output(): string;
  start(): Promise<void>;
  ready(timeoutMs?: number): Promise<void>;
  signal(sig: NodeJS.Signals): void;
  kill9(): Promise<void>;
  stop(graceMs?: number): Promise<void>;
}

export interface LocalCluster {
  url: string;
  dir: string;
  databaseUrl: string;
  redisUrl: string;
  /** the Redis server the cluster started (a test may stop it and start another on its port) */
  redis: { url: string; port: number; proc: ChildProcess; stop(): Promise<void> };
  nodes: ClusterNode[];
  keys: { org: string; household: string; liveOrg: string };
  node(id: string): ClusterNode | undefined;
  stop(): Promise<void>;
}

export function freePort(): Promise<number>;
export function startCluster(opts?: {
  nodes?: number;
  roles?: Array<'all' | 'api' | 'worker'>;
  env?: Record<string, string>;
  pgUrl?: string;
  keepDir?: boolean;
  /** VIGIL_DRAIN_DELAY_MS of every node; default 2500 (beyond HAProxy's two failed checks) */
  drainDelayMs?: number;
}): Promise<LocalCluster>;
