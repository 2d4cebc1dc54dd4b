/** Lowercase words of ASCII letters and digits joined by single hyphens, as in URLs. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 63;

export function isValidSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(slug);
}

/**
 * A slug derived from a group name: accents dropped, everything else that is not a letter or digit
 * becomes a hyphen. Returns undefined when nothing usable is left (a name of symbols only), so that
 * the caller asks for an explicit slug instead of inventing one.
 */
export function slugify(name: string): string | undefined {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
  return slug.length > 0 ? slug : undefined;
}
