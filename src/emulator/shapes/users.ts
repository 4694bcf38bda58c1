/** simple-user: accounts as they appear inside other resources (owner, user, author, actor). */
import type { Account, Urls } from '../model.js';
import { nodeId } from './common.js';

/**
 * simple-user.
 *
 * @example
 * userShape(repo.owner, urls).login; // 'octo-org'
 */
export function userShape(u: Account, urls: Urls): Record<string, unknown> {
  // A bot's login has brackets (`github-actions[bot]`): GitHub escapes them in URLs, and its page is the app's.
  const url = `${urls.api}/users/${encodeURIComponent(u.login)}`;
  const html = u.type === 'Bot' ? `${urls.html}/apps/${u.login.replace(/\[bot\]$/, '')}` : `${urls.html}/${u.login}`;
  return {
    login: u.login,
    id: u.id,
    node_id: nodeId(u.type, u.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${u.id}?v=4`,
    gravatar_id: '',
    url,
    html_url: html,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: u.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/**
 * The `actor` of a workflow run: simple-user without `user_view_type`, as the runs API sends it.
 *
 * @example
 * actorShape(repo.owner, urls).site_admin; // false
 */
export function actorShape(u: Account, urls: Urls): Record<string, unknown> {
  const { user_view_type: _viewType, ...actor } = userShape(u, urls);
  return actor;
}

/**
 * private-user (`GET /user`): the token's own account, with the fields only its owner sees. The emulator
 * keeps no profile, so they are empty or 0.
 *
 * @example
 * privateUserShape(token.user, urls).login; // 'alice'
 */
export function privateUserShape(u: Account, urls: Urls): Record<string, unknown> {
  return {
    ...userShape(u, urls),
    user_view_type: 'private',
    name: u.name ?? null,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    private_gists: 0,
    total_private_repos: 0,
    owned_private_repos: 0,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: true,
  };
}
