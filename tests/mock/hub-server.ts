/**
 * A loopback stand-in for the Hugging Face hub's public file endpoints, for tests and benches:
 *   GET /api/datasets/{owner}/{name}/tree/{revision}/{folder}   the folder's entries, as the hub lists them
 *   GET /datasets/{owner}/{name}/resolve/{revision}/{path}      a file's bytes
 *   GET|HEAD /{owner}/{name}/resolve/{revision}/{path}          a model's file (models given to startMockHub),
 *                                                               as Transformers.js fetches them
 * with CORS (the page fetches it from another origin) and gating as the hub does it: a gated
 * repository lists its files to anyone but serves them only with the token of an account that
 * accepted its conditions (401 without a token or with an unknown one, 403 with one that has
 * no access). Every request is recorded (path only: a token is never kept).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockHubRepo {
  /** revision → path → bytes. */
  files: Record<string, Record<string, Uint8Array>>;
  /** Gated: this token may read the files … */
  token?: string;
  /** … and this one is known but has not accepted the conditions. */
  noAccessToken?: string;
}

export interface MockHub {
  url: string;
  /** "GET /datasets/…" for every request served, in order. */
  requests: string[];
  close(): Promise<void>;
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, range', 'access-control-expose-headers': 'content-length' };

function send(res: ServerResponse, status: number, body: string | Uint8Array, type = 'application/json', head = false): void {
  res.writeHead(status, { ...CORS, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

/** A model repository: model id ('owner/name') → path → bytes (revision 'main' only, as Transformers.js asks by default). */
export type MockHubModels = Record<string, Record<string, Uint8Array>>;

function route(repos: Record<string, MockHubRepo>, models: MockHubModels, req: IncomingMessage, res: ServerResponse): void {
  const parts = new URL(req.url ?? '/', 'http://x').pathname.split('/').slice(1).map(decodeURIComponent);
  const model = models[`${parts[0]}/${parts[1]}`];
  if (model && parts[2] === 'resolve') {
    const bytes = parts[3] === 'main' ? model[parts.slice(4).join('/')] : undefined;
    if (!bytes) return send(res, 404, JSON.stringify({ error: 'Entry not found' }), 'application/json', req.method === 'HEAD');
    return send(res, 200, bytes, 'application/octet-stream', req.method === 'HEAD');
  }
  const api = parts[0] === 'api';
  const [kind, owner, name, verb, revision, ...rest] = api ? parts.slice(1) : parts;
  const repo = repos[`${owner}/${name}`];
  if (kind !== 'datasets' || !repo || (verb !== (api ? 'tree' : 'resolve'))) return send(res, 404, JSON.stringify({ error: 'Repository not found' }));
  const files = repo.files[revision];
  if (!files) return send(res, 404, JSON.stringify({ error: `Invalid rev id: ${revision}` }));
  const path = rest.join('/');
  if (api) {
    const entries = Object.entries(files)
      .filter(([p]) => p.split('/').slice(0, -1).join('/') === path)
      .map(([p, bytes]) => ({ type: 'file', oid: String(bytes.length), size: bytes.length, path: p }));
    if (entries.length === 0) return send(res, 404, JSON.stringify({ error: `Entry not found: ${path}` }));
    return send(res, 200, JSON.stringify(entries));
  }
  if (repo.token) {
    const auth = req.headers.authorization;
    if (auth === `Bearer ${repo.noAccessToken}`) return send(res, 403, JSON.stringify({ error: 'Access to this dataset is restricted. You must accept its conditions.' }));
    if (auth !== `Bearer ${repo.token}`) return send(res, 401, JSON.stringify({ error: 'Access to this dataset is restricted. Please log in.' }));
  }
  const bytes = files[path];
  if (!bytes) return send(res, 404, JSON.stringify({ error: 'Entry not found' }));
  send(res, 200, bytes, 'application/octet-stream');
}

export async function startMockHub(repos: Record<string, MockHubRepo>, models: MockHubModels = {}): Promise<MockHub> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-allow-methods': 'GET, HEAD' });
      return res.end();
    }
    requests.push(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`);
    route(repos, models, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
