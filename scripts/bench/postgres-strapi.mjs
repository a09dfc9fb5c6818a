/**
 * The benches' PostgreSQL: a throwaway cluster (scripts/postgres-cluster.cjs, its clock in UTC)
 * with an empty `strapi` database for the playground, and one client on it, opened on first use.
 * Both are closed by the benches' cleanup (bench-support.mjs onCleanup).
 */
import { createRequire } from 'node:module';
import { freePort, onCleanup } from '../bench-support.mjs';
import { startCluster } from '../postgres-cluster.cjs';

const require = createRequire(import.meta.url);

export async function startStrapiPostgres() {
  const cluster = startCluster({ port: await freePort(), settings: { timezone: 'UTC' } });
  const stopCluster = onCleanup('postgres cluster', cluster.stop);
  const { Client } = require('pg');
  const admin = new Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE strapi');
  await admin.end();
  let client = null;
  const connect = async () => {
    if (!client) {
      client = new Client({ connectionString: cluster.url('strapi') });
      await client.connect();
    }
    return client;
  };
  const closeClient = onCleanup('postgres connection', async () => {
    const open = client;
    client = null;
    await open?.end();
  });
  return { cluster, url: cluster.url, stopCluster, connect, closeClient };
}
