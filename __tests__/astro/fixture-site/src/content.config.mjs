// One collection: the notes/note documents of the test's section (repository and API URL from the test's
// environment; the token from $GITHUB_TOKEN, as in a user's CI).
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { docdbLoader } from 'docdb/astro';

const notes = defineCollection({
  loader: docdbLoader({
    repo: process.env.DOCDB_FIXTURE_REPO,
    apiUrl: process.env.DOCDB_FIXTURE_API_URL,
    namespace: 'notes',
    type: 'note',
  }),
  schema: z.object({ title: z.string(), n: z.number() }),
});

export const collections = { notes };
