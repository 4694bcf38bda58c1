/** `docdb section compact|quarantine`: operations on a whole section (its history, its quarantined runs). */
import type { CliGroup } from '../command.js';

export const group: CliGroup = {
  name: 'section',
  summary: 'operate on a whole section: compact, quarantine',
  subcommands: {
    compact: async () => (await import('./section-compact.js')).compact,
    quarantine: async () => (await import('./section-quarantine.js')).quarantine,
  },
};
