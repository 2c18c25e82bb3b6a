/**
 * Standalone mock provider server for browser tests and benchmarks in another process.
 * Usage: npx tsx tests/mock/serve.ts [--port 0] [--config file.json] [--tls]
 * Prints `MOCK_URL=http://127.0.0.1:PORT` on its first line; configure it later with
 * POST /__mock/config and read GET /__mock/stats. Stops on SIGINT/SIGTERM.
 *
 * --tls serves HTTPS with HTTP/2 (and HTTP/1.1) on a fresh self-signed certificate and also prints
 * `MOCK_SPKI=<base64>`: pass it to Chromium as --ignore-certificate-errors-spki-list=<base64> so a
 * page can keep more than 6 requests in flight to the mock (the HTTP/1.1 per-host limit).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MockProviderServer } from './provider-server.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, config: { type: 'string' }, tls: { type: 'boolean', default: false } } });
const config = values.config ? JSON.parse(readFileSync(values.config, 'utf8')) : {};
const mock = await MockProviderServer.start(config, { port: Number(values.port), tls: values.tls });
process.stdout.write(`MOCK_URL=${mock.url}\n`);
if (mock.tls) process.stdout.write(`MOCK_SPKI=${mock.tls.spki}\n`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
