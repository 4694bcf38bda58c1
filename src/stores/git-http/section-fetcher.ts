/**
 * What a GitHttpRefStore asks the server for, and nothing more:
 * - the section's tip: one `ls-refs` round trip naming the section ref (and the names git would
 *   confuse with it, so an ambiguous section is refused before anything is written);
 * - a new tip's objects: one `fetch` of that commit with the tips this store already holds as
 *   `have`s — declared `shallow`, since their history may not be here — as a thin pack, so the server
 *   sends only the commits since and what they changed, changed trees as deltas against the ones held
 *   here (`deepen` would make git send the whole tree again); with nothing held, the tip alone
 *   (`deepen 1`);
 * - older history on demand: `deepen-relative` from the commits whose parents are not here yet.
 * Objects go into the ObjectStore keyed by their SHA (computed from their bytes by pack-reader.ts).
 */
import { InvalidConfig, InvalidResponse } from '../../core/errors.js';
import type { GitHttpClient } from './http-client.js';
import type { ObjectStore } from './object-store.js';
import { type PackLimits, UnresolvedDeltas, unpack } from './pack-reader.js';
import {
  discover,
  type FetchRequest,
  fetchPack,
  lsRefs,
  type UploadPackCapabilities,
  type UploadPackLimits,
} from './upload-pack.js';

export interface FetcherOptions {
  client: GitHttpClient;
  objects: ObjectStore;
  ref: string;
  agent: string;
  limits: UploadPackLimits & PackLimits;
}

/** Deepen "everything" (git's INFINITE_DEPTH). */
export const ALL_HISTORY = 0x7fffffff;

/** Commits this store holds with their whole trees, newest first, offered as `have`s (a few suffice). */
const MAX_HAVES = 8;

/**
 * Names git's DWIM rules match for `ref` (https://git-scm.com/docs/gitrevisions): a remote ref with one
 * of them makes a plain `git push …:<ref>` or `git fetch <remote> <ref>` ambiguous.
 */
export function confusableRefs(ref: string): string[] {
  return [`refs/${ref}`, `refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/${ref}`, `refs/remotes/${ref}/HEAD`];
}

/**
 * The section's traffic with the server.
 *
 * @example
 * const tip = await fetcher.tip();
 * if (tip) await fetcher.ensure(tip);
 */
export class SectionFetcher {
  private capabilities: Promise<UploadPackCapabilities> | undefined;
  private readonly haves: string[] = [];

  constructor(private readonly o: FetcherOptions) {}

  /** The v2 capability advertisement, asked once (again after a failure). */
  caps(): Promise<UploadPackCapabilities> {
    this.capabilities ??= discover(this.o.client, this.o.limits).catch((e) => {
      this.capabilities = undefined;
      throw e;
    });
    return this.capabilities;
  }

  /** The remote tip of the section (null when the ref does not exist); refuses an ambiguous section. */
  async tip(): Promise<string | null> {
    const caps = await this.caps();
    const confusable = confusableRefs(this.o.ref);
    const refs = await lsRefs(this.o.client, caps, this.o.agent, [this.o.ref, ...confusable], this.o.limits);
    const clash = confusable.filter((r) => refs.has(r));
    if (clash.length > 0) {
      throw new InvalidConfig(
        'ref',
        `${this.o.client.url} has ${clash.join(' and ')} beside the section ${this.o.ref}: git resolves ` +
          `${this.o.ref} ambiguously, so a plain git push or fetch of the section could hit the wrong ref. ` +
          `Delete or rename ${clash[0]} (git push <remote> :${clash[0]}), or use another section ref`,
        { allowed: 'a section ref no other ref shadows', reason: 'ambiguous-ref', shadows: clash },
      );
    }
    return refs.get(this.o.ref) ?? null;
  }

  /** Remember a commit whose whole tree is here (fetched or written) as a future `have`. */
  remember(commit: string): void {
    const i = this.haves.indexOf(commit);
    if (i >= 0) this.haves.splice(i, 1);
    this.haves.unshift(commit);
    this.haves.length = Math.min(this.haves.length, MAX_HAVES);
  }

  /** Make `commit` and its tree present: nothing when it is, else one fetch of what is missing. */
  async ensure(commit: string): Promise<void> {
    if (await this.o.objects.commitIfPresent(commit)) {
      this.remember(commit); // e.g. found in a persistent cache after a reload: a good `have` next time
      return;
    }
    const haves = [...this.haves];
    if (haves.length === 0) await this.fetch({ wants: [commit], deepen: 1 });
    else await this.fetch({ wants: [commit], haves, shallows: haves, thin: true });
    if (!(await this.o.objects.commitIfPresent(commit))) {
      throw new InvalidResponse(`${this.o.client.url} did not send commit ${commit} of ${this.o.ref}`, {
        commit,
      });
    }
    this.remember(commit);
  }

  /** Fetch `by` more commits of history below `boundary` (commits here without their parents). */
  deepen(tip: string, boundary: readonly string[], by: number): Promise<void> {
    return this.fetch({ wants: [tip], haves: [tip], shallows: boundary, deepen: by, deepenRelative: true, thin: true });
  }

  /** Fetch the top `depth` commits from `tip` whole, claiming nothing (after the cache lost objects). */
  refetch(tip: string, depth: number): Promise<void> {
    return this.fetch({ wants: [tip], deepen: depth });
  }

  /**
   * One fetch; objects go into the store. When a thin pack's delta base is no longer here (evicted),
   * the same wants are fetched again whole, claiming nothing.
   */
  private async fetch(request: FetchRequest): Promise<void> {
    const reply = await fetchPack(this.o.client, await this.caps(), this.o.agent, request, this.o.limits);
    let objects: Awaited<ReturnType<typeof unpack>>;
    try {
      objects = await unpack(reply.pack, this.o.limits, request.thin ? (sha) => this.o.objects.get(sha) : undefined);
    } catch (e) {
      if (!(e instanceof UnresolvedDeltas)) throw e;
      this.haves.length = 0;
      return this.fetch({ wants: request.wants, deepen: request.deepenRelative ? ALL_HISTORY : 1 });
    }
    for (const o of objects) await this.o.objects.put(o.sha, o.type, o.body);
  }
}
