/** The built-in demo world, served by `docdb demo`, `docdb emulator --demo` and the playground. */
import type { EmulatorSeed } from './seed.js';

/**
 * The built-in demo world: organization `octo-org` with three repositories (one private), user
 * `octocat` with one, branches, issues, pull requests and releases. Tokens:
 * `ghp_demo_write` (write everywhere), `ghp_demo_read` (read-only on octo-org/widgets and octo-org/secret-plans).
 */
export const DEMO_SEED: EmulatorSeed = {
  accounts: [
    { login: 'octo-org', type: 'Organization', name: 'Octo Org' },
    { login: 'octocat', type: 'User', name: 'The Octocat' },
    { login: 'hubot', type: 'User' },
  ],
  repos: [
    {
      name: 'octo-org/widgets',
      description: 'Widgets for every occasion',
      topics: ['widgets', 'demo'],
      files: { 'src/widget.ts': 'export const widget = 1;\n', 'package.json': '{ "name": "widgets" }\n' },
      branches: [
        { name: 'develop', files: { 'src/next.ts': 'export const next = 2;\n' }, message: 'Start next version' },
        {
          name: 'feature/login',
          files: { 'src/login.ts': 'export const login = () => true;\n' },
          message: 'Add login',
        },
      ],
      issues: [
        {
          title: 'Widgets wobble',
          body: 'They wobble on Tuesdays.',
          labels: ['bug'],
          user: 'hubot',
          createdAt: '2024-01-02T09:00:00Z',
        },
        { title: 'Add a blue widget', labels: ['enhancement'], createdAt: '2024-01-03T09:00:00Z' },
        {
          title: 'Old crash',
          state: 'closed',
          labels: ['bug'],
          createdAt: '2024-01-04T09:00:00Z',
          updatedAt: '2024-01-05T09:00:00Z',
        },
      ],
      pulls: [
        {
          title: 'Login support',
          head: 'feature/login',
          base: 'main',
          body: 'Adds login.',
          createdAt: '2024-01-06T09:00:00Z',
        },
        { title: 'Next version', head: 'develop', base: 'main', draft: true, createdAt: '2024-01-07T09:00:00Z' },
      ],
      releases: [
        { tagName: 'v1.0.0', name: 'First release', body: 'Hello widgets.', createdAt: '2024-01-10T09:00:00Z' },
        { tagName: 'v1.1.0-rc.1', prerelease: true, createdAt: '2024-01-20T09:00:00Z' },
        { tagName: 'v2.0.0', draft: true, createdAt: '2024-01-25T09:00:00Z' },
      ],
    },
    {
      name: 'octo-org/gadgets',
      description: 'Gadgets and gizmos',
      defaultBranch: 'trunk',
      files: { 'README.md': '# gadgets\n\nGizmos.\n' },
      branches: [{ name: 'release/1.x' }],
      issues: [{ title: 'Gizmo jams', createdAt: '2024-02-01T09:00:00Z' }],
      releases: [{ tagName: 'v0.1.0', createdAt: '2024-02-02T09:00:00Z' }],
    },
    {
      name: 'octo-org/secret-plans',
      private: true,
      description: 'Private: world domination, phase 1',
      files: { 'plan.md': '1. Widgets\n2. ???\n3. Profit\n' },
    },
    {
      name: 'octocat/hello-world',
      description: 'My first repository on the emulated GitHub!',
      defaultBranch: 'master',
      branches: [{ name: 'octocat-patch-1', files: { 'README.md': '# Hello World!\n' } }],
      issues: [{ title: 'Say hello back', user: 'hubot', createdAt: '2024-03-01T09:00:00Z' }],
    },
    { name: 'octocat/empty', description: 'An empty repository', empty: true },
  ],
  tokens: [
    { token: 'ghp_demo_write', login: 'octocat', repos: '*' },
    { token: 'ghp_demo_read', login: 'hubot', repos: { 'octo-org/widgets': 'read', 'octo-org/secret-plans': 'read' } },
  ],
};
