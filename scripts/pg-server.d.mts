export interface PostgresServer {
  url: string;
  port: number;
  stop(): void;
}
export function startPostgres(): Promise<PostgresServer>;
export function freePort(): Promise<number>;
