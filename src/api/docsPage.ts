import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

export const DOCS_PATH = '/docs';
export const DOCS_TITLE = 'Case Screening Service API reference';

/** A shield with a tick: the service's mark, in the top bar and as the favicon. */
const MARK = `<rect x="0" y="0" width="32" height="32" rx="7" fill="#2f6f5e"/>
<path d="M16 5 L26 9 V16 C26 22 21.5 26 16 28 C10.5 26 6 22 6 16 V9 Z" fill="none" stroke="#fff" stroke-width="2"/>
<path d="M11.5 16.5 L14.8 19.8 L21 13" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>`;

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="40" viewBox="0 0 320 40">
<g transform="translate(0 4)">${MARK}</g>
<text x="44" y="27" font-family="-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="19" font-weight="600" fill="#fff">Case Screening Service</text>
</svg>`;

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">${MARK}</svg>`;

/**
 * A quiet top bar with the service's name. The stock bar's "Explore" field is hidden: the page
 * documents this service's own document, not any URL a reader types.
 */
const THEME_CSS = `.swagger-ui .topbar { background-color: #1d2b36; padding: 8px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }`;

/**
 * The options of the `/docs` page (@fastify/swagger-ui): the service's title, mark and favicon
 * instead of the stock Swagger and Fastify ones, and no online validator (the page must not send
 * the document to validator.swagger.io; the test suite validates it against OpenAPI 3.1 instead).
 */
export const docsPageOptions: FastifySwaggerUiOptions = {
  routePrefix: DOCS_PATH,
  validatorUrl: false,
  logo: { type: 'image/svg+xml', content: LOGO_SVG, href: DOCS_PATH, target: '_self' },
  theme: {
    title: DOCS_TITLE,
    css: [{ filename: 'casescreen.css', content: THEME_CSS }],
    favicon: [
      { filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON_SVG },
    ],
  },
};
