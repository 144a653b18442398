#!/usr/bin/env node
// `npm run cluster`: PostgreSQL + Redis + three Vigil nodes + HAProxy on this machine.
// Prints the URL and working keys; Ctrl-C stops everything. VIGIL_CLUSTER_NODES changes the count.
import { startCluster } from './cluster-lib.mjs';

const count = Number(process.env.VIGIL_CLUSTER_NODES ?? 3);
if (!Number.isInteger(count) || count < 1 || count > 9) {
  console.error(`VIGIL_CLUSTER_NODES must be an integer from 1 to 9, got ${JSON.stringify(process.env.VIGIL_CLUSTER_NODES)}`);
  process.exit(2);
}
process.stdout.write(`starting PostgreSQL, Redis, ${count} Vigil nodes and HAProxy…\n`);
const cluster = await startCluster({ nodes: count });
const { url, keys } = cluster;
process.stdout.write(
  [
    '',
    `Vigil cluster: ${url}  (HAProxy over ${cluster.nodes.map((n) => `${n.id} ${n.url}`).join(', ')})`,
    `  web console: ${url}/console`,
    `  PostgreSQL:  ${cluster.databaseUrl}`,
    `  Redis:       ${cluster.redisUrl}`,
    `  logs:        ${cluster.dir}`,
    '',
    'Keys (shown once; stored only as hashes):',
    `  organization key (Surface B, sandbox): ${keys.org}`,
    `  organization key (Surface B, live):    ${keys.liveOrg}`,
    `  household key    (Surface A, sandbox): ${keys.household}`,
    '',
    'Where each stream runs (assignment.node_id):',
    `  curl -s ${url}/v1/streams -H "Authorization: Bearer ${keys.org}"`,
    '',
    'Ctrl-C stops everything.',
    '',
  ].join('\n'),
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\nstopping the cluster…\n');
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// a node that dies is reported (the others take over its streams)
for (const n of cluster.nodes) {
  n.proc.on('exit', (code, signal) => {
    if (!stopping) process.stdout.write(`${n.id} exited (${signal ?? code}); its streams move to the other nodes within seconds\n`);
  });
}
