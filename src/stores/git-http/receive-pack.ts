/**
 * Writing to the server: `git-receive-pack` over smart HTTP (https://git-scm.com/docs/http-protocol,
 * https://git-scm.com/docs/pack-protocol#_pushing_data_to_a_server). The update command
 * `<old> <new> <ref>` is a compare-and-swap: the server takes the ref lock and refuses the update
 * unless the ref is still at `<old>` (all zeros: must not exist) — `ng <ref> <reason>` in its
 * report-status. Receive-pack has no protocol v2; its capability advertisement (one GET per store)
 * checks that pushing is allowed before the first write builds anything.
 */
import { concatBytes } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { inertText } from '../../core/terminal-text.js';
import type { GitHttpClient } from './http-client.js';
import { FLUSH, malformed, type Packet, packetText, pktLine, readPackets, sideBandData } from './pkt-line.js';

const RESULT = 'application/x-git-receive-pack-result';

/** Capabilities of the receive-pack advertisement (`report-status`, `side-band-64k`, …). */
export type ReceivePackCapabilities = Set<string>;

/**
 * The server's verdict on one ref update; `messages` is what it printed on side-band 2 (a hook's
 * output: the human reason behind git's terse `pre-receive hook declined`), one line per entry.
 */
export type PushStatus = { ok: true } | { ok: false; reason: string; messages: string[] };

/**
 * `GET /info/refs?service=git-receive-pack`: the capabilities after the first ref (or after
 * `capabilities^{}` in an empty repository). `report-status` is required: without it a push's fate
 * cannot be known. 401/403 here mean the token may not push.
 *
 * @example
 * const caps = await receivePackCapabilities(client, 16 << 20); caps.has('side-band-64k');
 */
export async function receivePackCapabilities(
  client: GitHttpClient,
  maxBytes: number,
): Promise<ReceivePackCapabilities> {
  const body = await client.send({
    method: 'GET',
    path: '/info/refs?service=git-receive-pack',
    expect: 'application/x-git-receive-pack-advertisement',
    maxBytes,
  });
  const packets = readPackets(body, 'receive-pack advertisement');
  let i = 0;
  if (packetText(packets[0] ?? 'flush')?.startsWith('# service=')) i = 2;
  const first = packets[i];
  if (first === undefined || typeof first === 'string') throw malformed('receive-pack advertisement', 'no ref line');
  const nul = first.indexOf(0);
  const caps = new Set((nul < 0 ? '' : (packetText(first.subarray(nul + 1)) ?? '')).split(' ').filter(Boolean));
  if (!caps.has('report-status')) {
    throw new InvalidResponse(`${client.url} does not offer report-status for pushes`, { url: client.url });
  }
  const format = [...caps].find((c) => c.startsWith('object-format='));
  if (format && format !== 'object-format=sha1') {
    throw new InvalidResponse(`${client.url} uses ${format}; docdb writes SHA-1 repositories`, { url: client.url });
  }
  return caps;
}

/**
 * Push `pack` and move `ref` from `old` to `next` in one request. Resolves with the server's verdict;
 * a pack the server could not store is `InvalidResponse`.
 *
 * @example
 * const status = await pushPack(client, caps, agent, { ref, old: tip ?? ZERO_SHA, next: commit, pack }, maxBytes);
 */
export async function pushPack(
  client: GitHttpClient,
  caps: ReceivePackCapabilities,
  agent: string,
  update: { ref: string; old: string; next: string; pack: Uint8Array },
  maxBytes: number,
): Promise<PushStatus> {
  const wanted = ['report-status', 'side-band-64k', 'quiet'].filter((c) => caps.has(c));
  if (caps.has('object-format=sha1')) wanted.push('object-format=sha1');
  wanted.push(`agent=${agent}`);
  const command = `${update.old} ${update.next} ${update.ref}\0${wanted.join(' ')}\n`;
  const reply = await client.send({
    method: 'POST',
    path: '/git-receive-pack',
    body: concatBytes([pktLine(command), FLUSH, update.pack]),
    headers: { 'Content-Type': 'application/x-git-receive-pack-request', Accept: RESULT },
    expect: RESULT,
    maxBytes,
  });
  let packets: Packet[] = readPackets(reply, 'push reply');
  const messages: string[] = [];
  // With side-band-64k the report-status lines are themselves pkt-lines inside band 1.
  if (caps.has('side-band-64k')) packets = readPackets(sideBandData(packets, 'push reply', messages), 'push report');
  const status = readReport(packets, update.ref);
  return status.ok ? status : { ...status, messages: messageLines(messages) };
}

/**
 * Side-band text as lines: progress redraws (`\r`) and empty lines dropped, and every other control
 * character (a hook can print `ESC]0;…BEL`, `ESC[2J`, an OSC 52 clipboard write) shown as `\uXXXX`.
 */
function messageLines(chunks: readonly string[]): string[] {
  return chunks
    .join('')
    .split(/\r?\n/)
    .map((l) => inertText((l.split('\r').pop() ?? '').trim()))
    .filter(Boolean);
}

/** `unpack ok` then `ok <ref>` or `ng <ref> <reason>` (https://git-scm.com/docs/pack-protocol#_report_status). */
function readReport(packets: Packet[], ref: string): { ok: true } | { ok: false; reason: string } {
  const lines = packets.map(packetText).filter((l): l is string => l !== null);
  const unpack = lines[0];
  if (unpack === undefined || !unpack.startsWith('unpack ')) throw malformed('push report', 'no unpack status');
  if (unpack !== 'unpack ok') {
    const reason = inertText(unpack.slice(7));
    throw new InvalidResponse(`the git server could not store the pushed objects: ${reason}`, { reason });
  }
  for (const line of lines.slice(1)) {
    if (line === `ok ${ref}`) return { ok: true };
    if (line.startsWith(`ng ${ref} `)) return { ok: false, reason: inertText(line.slice(ref.length + 4)) };
  }
  throw malformed('push report', `no status for ${ref}`);
}
