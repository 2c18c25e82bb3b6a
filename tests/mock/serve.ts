/**
 * Standalone mock provider server for browser tests and benchmarks in another process.
 * Usage: npx tsx tests/mock/serve.ts [--port 0] [--config file.json]
 * Prints `MOCK_URL=http://127.0.0.1:PORT` on its first line; configure it later with
 * POST /__mock/config and read GET /__mock/stats. Stops on SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MockProviderServer } from './provider-server.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, config: { type: 'string' } } });
const config = values.config ? JSON.parse(readFileSync(values.config, 'utf8')) : {};
const mock = await MockProviderServer.start(config, { port: Number(values.port) });
process.stdout.write(`MOCK_URL=${mock.url}\n`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
