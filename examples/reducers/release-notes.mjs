/**
 * A custom reducer (see docs/projection-spec.md, "Custom reducers"): one release → the document's data.
 * Return null to skip an item. `context` = { projection, source, repository, owner, name, identity }.
 */
export default function releaseNotes(release, context) {
  if (release.prerelease) return null; // only final releases get a notes document
  return {
    repository: context.repository,
    tag: release.tag_name,
    title: release.name ?? release.tag_name,
    notes: release.body ?? '',
    publishedAt: release.published_at,
  };
}
