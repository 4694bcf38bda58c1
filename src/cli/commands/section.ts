/** `docdb section compact`: operations on a whole section (its history). */
import type { CliGroup } from '../command.js';

export const group: CliGroup = {
  name: 'section',
  summary: 'operate on a whole section: compact',
  subcommands: {
    compact: async () => (await import('./section-compact.js')).compact,
  },
};
