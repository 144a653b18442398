import { hostname } from 'node:os';

/** A node id goes into logs, lease rows and URLs of the metrics: keep it plain. */
const NODE_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * This process's name among the nodes of a cluster (metrics' `node_id` label, log lines, stream
 * leases, scheduled-job claims): VIGIL_NODE_ID, or `<hostname>-<pid>` so two processes on one
 * machine differ.
 */
export function resolveNodeId(env: NodeJS.ProcessEnv = process.env): string {
  const rawId = (env.VIGIL_NODE_ID ?? '').trim();
  const nodeId =
    rawId === ''
      ? `${
          hostname()
            .replace(/[^A-Za-z0-9._-]/g, '-')
            .slice(0, 40) || 'node'
        }-${process.pid}`
      : rawId;
  if (!NODE_ID_RE.test(nodeId)) {
    throw new Error(`config: VIGIL_NODE_ID must be 1–64 letters, digits, '.', '_' or '-' (starting with a letter or digit), got ${JSON.stringify(rawId)}`);
  }
  return nodeId;
}
