import { hostname } from 'node:os';

/**
 * This process's name among the nodes of a cluster (metrics' `node_id` label, log lines, stream
 * leases): VIGIL_NODE_ID, or `<hostname>-<pid>` so two processes on one machine differ.
 */
export function resolveNodeId(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.VIGIL_NODE_ID?.trim();
  if (configured) {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(configured)) {
      throw new Error(`config: VIGIL_NODE_ID must be 1-64 letters, digits, '.', '_' or '-', got ${JSON.stringify(configured)}`);
    }
    return configured;
  }
  return `${hostname()}-${process.pid}`;
}
