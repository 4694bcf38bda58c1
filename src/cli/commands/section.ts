/** `docdb section compact|quarantine|feed`: operations on a whole section (its history, its quarantined runs, its Atom feed). */
import type { CliGroup } from '../command.js';

export const group: CliGroup = {
  name: 'section',
  summary: 'operate on a whole section: compact, quarantine, feed',
  subcommands: {
    compact: async () => (await import('./section-compact.js')).compact,
    quarantine: async () => (await import('./section-quarantine.js')).quarantine,
    feed: async () => (await import('./section-feed.js')).feed,
  },
};
