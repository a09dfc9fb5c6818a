import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const work = mkdtempSync(path.join(os.tmpdir(), 'tm-'));
mkdirSync(path.join(work, 'public/uploads'), { recursive: true });
const env = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '1455', PUBLIC_URL: 'http://127.0.0.1:1455', PUBLIC_DIR: path.join(work, 'public'), DATABASE_FILENAME: path.join(work, 'data.db'), APP_KEYS: 'a,b', API_TOKEN_SALT: 'x', ADMIN_JWT_SECRET: 'x', TRANSFER_TOKEN_SALT: 'x', JWT_SECRET: 'x', ENCRYPTION_KEY: 'x', SPEECH_API_KEY: 'k', SPEECH_BASE_URL: 'http://127.0.0.1:9', SERVE_ADMIN_PANEL: 'false', STRAPI_TELEMETRY_DISABLED: 'true' };
const child = spawn(process.execPath, ['scripts/playground.cjs', 'start'], { cwd: '/work/main', env, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
child.stdout.on('data', (c) => (out += c));
while (!out.includes('strapi-ready')) await new Promise((r) => setTimeout(r, 200));
const base = 'http://127.0.0.1:1455';
const j = async (m, p, b, t) => { const r = await fetch(base + p, { method: m, headers: { 'content-type': 'application/json', ...(t ? { authorization: `Bearer ${t}` } : {}) }, body: b ? JSON.stringify(b) : undefined }); return r.json(); };
const token = (await j('POST', '/admin/register-admin', { firstname: 'a', lastname: 'b', email: 'a@b.co', password: 'Passw0rd-Passw0rd!' })).data.token;
const ids = [];
for (let i = 0; i < 100; i++) ids.push((await j('POST', '/content-manager/collection-types/api::article.article?locale=en', { title: 't' + i }, token)).data.documentId);
async function time(label, m, p, b) {
  const xs = [];
  for (let i = 0; i < 23; i++) { const t0 = performance.now(); await j(m, p, b, token); if (i >= 3) xs.push(performance.now() - t0); }
  xs.sort((a, b) => a - b);
  console.log(label, 'p50', xs[10].toFixed(1), 'p95', xs[18].toFixed(1));
}
for (const id of ids) await j('POST', `/content-manager/collection-types/api::article.article/${id}/actions/publish?locale=en`, {}, token);
await new Promise((r) => setTimeout(r, 1500));
await time('narrated-types', 'GET', '/speech/narrated-types');
await time('admin users/me', 'GET', '/admin/users/me');
await time('statuses', 'POST', '/speech/narrations/statuses', { contentType: 'api::article.article', documentIds: ids });
await time('cm list', 'GET', '/content-manager/collection-types/api::article.article?page=1&pageSize=10&locale=en');
console.log(out.split('\n').filter((l) => l.includes('TIMING')).slice(-8).join('\n'));
child.kill('SIGTERM');
