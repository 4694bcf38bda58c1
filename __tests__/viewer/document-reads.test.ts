/** The document view's pure helpers in Node: the identity read from the URL state. */
import { describe, expect, it } from 'vitest';
import { identityOf } from '../../src/viewer/document/reads.js';
import { parseViewState } from '../../src/viewer/state.js';

describe('identityOf', () => {
  it('reads ns, type and id as an identity', () => {
    const { state } = parseViewState('?repo=octo/x&view=document&ns=github&type=repo&id=octo%2Fa+b');
    expect(identityOf(state!)).toEqual({
      identity: { namespace: 'github', doc_type: 'repo', id: 'octo/a b' },
    });
  });

  it('names every missing parameter (the frame normally catches this first; the view never reads without them)', () => {
    const { state } = parseViewState('?repo=octo/x');
    expect(identityOf({ ...state!, view: 'document', ns: 'github' })).toEqual({
      problem: 'The document view needs "type", "id" in the URL (ns=namespace&type=doc_type&id=document id).',
    });
  });
});
