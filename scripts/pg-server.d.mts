export interface PostgresServer {
  url: string;
  port: number;
  /** the cluster's data directory (its postmaster.pid names the server process) */
  dataDir: string;
  stop(): void;
}
export function startPostgres(): Promise<PostgresServer>;
export function freePort(): Promise<number>;
