/**
 * Reading from the server with git protocol v2 over smart HTTP
 * (https://git-scm.com/docs/protocol-v2, https://git-scm.com/docs/http-protocol):
 * - `discover`: `GET /info/refs?service=git-upload-pack` with `Git-Protocol: version=2` — the
 *   capability advertisement (once per store; it also tells a git server from anything else);
 * - `lsRefs`: `command=ls-refs` with `ref-prefix` lines — the tip of the section ref alone, one round trip;
 * - `fetchPack`: `command=fetch` with `want`/`have`/`shallow`/`deepen` — a pack of what is missing.
 * Every reply is untrusted: framing, ids and sizes are checked (pkt-line.ts, pack-reader.ts).
 */
import { concatBytes } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { isSha } from '../../core/git/objects.js';
import type { GitHttpClient } from './http-client.js';
import { DELIM, FLUSH, malformed, type Packet, packetText, pktLines, readPackets, sideBandData } from './pkt-line.js';

const V2 = { 'Git-Protocol': 'version=2' };
const REQUEST = {
  ...V2,
  'Content-Type': 'application/x-git-upload-pack-request',
  Accept: 'application/x-git-upload-pack-result',
};
const RESULT = 'application/x-git-upload-pack-result';

/** What the server offers in protocol v2 (`fetch=shallow …`, `object-format=sha1`, …). */
export interface UploadPackCapabilities {
  /** Capability name → value ('' when it has none). */
  caps: Map<string, string>;
}

/** Size caps of the replies (bytes). */
export interface UploadPackLimits {
  maxAdvertisementBytes: number;
  maxFetchBytes: number;
}

/** One `command=fetch` request. */
export interface FetchRequest {
  wants: readonly string[];
  haves?: readonly string[];
  /** Commits the client has without their parents (its shallow boundary). */
  shallows?: readonly string[];
  /** Commits to fetch below each want (or below the client's boundary with `deepenRelative`). */
  deepen?: number;
  deepenRelative?: boolean;
  /** Let the server send deltas against objects the `have`s reach (a thin pack). */
  thin?: boolean;
}

/** A fetch reply: the pack and the server's new view of the client's shallow boundary. */
export interface FetchReply {
  pack: Uint8Array;
  shallow: string[];
  unshallow: string[];
}

/**
 * The v2 capability advertisement. A server that answers v0 (no `version 2`) or lacks `ls-refs`,
 * `fetch` with `shallow`, or SHA-1 object names is `InvalidResponse` naming what is missing.
 *
 * @example
 * const { caps } = await discover(client, limits); caps.get('fetch'); // 'shallow wait-for-done'
 */
export async function discover(client: GitHttpClient, limits: UploadPackLimits): Promise<UploadPackCapabilities> {
  const body = await client.send({
    method: 'GET',
    path: '/info/refs?service=git-upload-pack',
    headers: V2,
    expect: 'application/x-git-upload-pack-advertisement',
    maxBytes: limits.maxAdvertisementBytes,
  });
  const lines = readPackets(body, 'capability advertisement').map(packetText);
  // Some servers put git's v0 "# service=" header (and a flush) before the v2 advertisement.
  const start = lines[0]?.startsWith('# service=') ? 2 : 0;
  if (lines[start] !== 'version 2') {
    throw new InvalidResponse(
      `${client.url} does not speak git protocol v2 (git ≥ 2.18 on the server, GitHub, GitLab, Gitea/Forgejo and Bitbucket do)`,
      { url: client.url },
    );
  }
  const caps = new Map<string, string>();
  for (const line of lines.slice(start + 1)) {
    if (line === null) break;
    const eq = line.indexOf('=');
    caps.set(eq < 0 ? line : line.slice(0, eq), eq < 0 ? '' : line.slice(eq + 1));
  }
  const missing = (what: string) =>
    new InvalidResponse(`${client.url} lacks the protocol v2 capability ${what}`, {
      url: client.url,
      capability: what,
    });
  if (!caps.has('ls-refs')) throw missing('ls-refs');
  if (!(caps.get('fetch') ?? '').split(' ').includes('shallow')) throw missing('fetch=shallow');
  const format = caps.get('object-format');
  if (format !== undefined && format !== 'sha1') throw missing('object-format=sha1');
  return { caps };
}

/** The request's capability lines: our agent, and SHA-1 when the server names object formats. */
function commandHead(command: string, caps: UploadPackCapabilities, agent: string): Uint8Array[] {
  const lines = [`command=${command}`, `agent=${agent}`];
  if (caps.caps.has('object-format')) lines.push('object-format=sha1');
  return pktLines(lines);
}

/** One protocol-v2 command: `POST /git-upload-pack`, its reply at most `maxBytes`. */
function command(client: GitHttpClient, body: Uint8Array, maxBytes: number, limitName?: string): Promise<Uint8Array> {
  const request = { method: 'POST' as const, path: '/git-upload-pack', body, headers: REQUEST, expect: RESULT };
  return client.send({ ...request, maxBytes, ...(limitName ? { limitName } : {}) });
}

/**
 * Refs whose names are exactly one of `names` → their object ids (`ls-refs` with one `ref-prefix` per
 * name; the server matches prefixes, so longer names are dropped here).
 *
 * @example
 * (await lsRefs(client, caps, agent, ['refs/docdb/documents'], limits)).get('refs/docdb/documents'); // sha or undefined
 */
export async function lsRefs(
  client: GitHttpClient,
  caps: UploadPackCapabilities,
  agent: string,
  names: readonly string[],
  limits: UploadPackLimits,
): Promise<Map<string, string>> {
  const body = concatBytes([
    ...commandHead('ls-refs', caps, agent),
    DELIM,
    ...pktLines(names.map((n) => `ref-prefix ${n}`)),
    FLUSH,
  ]);
  const reply = await command(client, body, limits.maxAdvertisementBytes);
  const out = new Map<string, string>();
  for (const p of readPackets(reply, 'ls-refs reply')) {
    const line = packetText(p);
    if (line === null) break;
    const [oid, name] = line.split(' ');
    if (!isSha(oid) || name === undefined) throw malformed('ls-refs reply', `unexpected line ${JSON.stringify(line)}`);
    if (names.includes(name)) out.set(name, oid);
  }
  return out;
}

function fetchArgs(r: FetchRequest): string[] {
  const lines = ['no-progress', 'ofs-delta'];
  if (r.thin) lines.push('thin-pack');
  for (const w of r.wants) lines.push(`want ${w}`);
  for (const s of r.shallows ?? []) lines.push(`shallow ${s}`);
  if (r.deepen !== undefined) lines.push(`deepen ${r.deepen}`);
  if (r.deepenRelative) lines.push('deepen-relative');
  for (const h of r.haves ?? []) lines.push(`have ${h}`);
  lines.push('done');
  return lines;
}

/**
 * One `command=fetch` round trip with `done` (no negotiation rounds): the pack of everything reachable
 * from `wants` that `haves` do not reach, cut at the requested depth.
 *
 * @example
 * const { pack, shallow } = await fetchPack(client, caps, agent, { wants: [tip], deepen: 1 }, limits);
 */
export async function fetchPack(
  client: GitHttpClient,
  caps: UploadPackCapabilities,
  agent: string,
  request: FetchRequest,
  limits: UploadPackLimits,
): Promise<FetchReply> {
  const body = concatBytes([...commandHead('fetch', caps, agent), DELIM, ...pktLines(fetchArgs(request)), FLUSH]);
  const reply = await command(client, body, limits.maxFetchBytes, 'maxFetchBytes');
  return parseFetchReply(readPackets(reply, 'fetch reply'));
}

/** Sections of a fetch reply (`shallow-info`, `packfile`, …), each up to a delimiter or flush. */
function parseFetchReply(packets: Packet[]): FetchReply {
  const out: FetchReply = { pack: new Uint8Array(0), shallow: [], unshallow: [] };
  let i = 0;
  let sawPack = false;
  while (i < packets.length) {
    const header = packetText(packets[i] as Packet);
    let end = i + 1;
    while (end < packets.length && typeof packets[end] !== 'string') end++;
    const section = packets.slice(i + 1, end);
    if (header === 'shallow-info') readShallowInfo(section, out);
    else if (header === 'packfile') {
      out.pack = sideBandData(section, 'fetch reply');
      sawPack = true;
    } else if (header === null) throw malformed('fetch reply', 'a section without a header');
    // acknowledgments, wanted-refs, packfile-uris: nothing we asked for; skipped.
    i = end + 1;
  }
  if (!sawPack) throw malformed('fetch reply', 'no packfile section');
  return out;
}

function readShallowInfo(section: Packet[], out: FetchReply): void {
  for (const p of section) {
    const [kind, oid] = (packetText(p) ?? '').split(' ');
    if ((kind !== 'shallow' && kind !== 'unshallow') || !isSha(oid)) {
      throw malformed('fetch reply', `bad shallow-info line ${JSON.stringify(packetText(p))}`);
    }
    out[kind].push(oid);
  }
}
