// The web app's pages as HTML: the marketing pages with their own head and content in every
// language, the others as the app's index page; the sitemap and robots.txt for crawlers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { marketingPaths, pageHtml, robotsTxt, sitemapXml } from '../services/marketingPages.js';

/** A page of the single-page app (which handles its own redirects), or 503 while the app is not built. */
export function sendPage(config: Config, req: FastifyRequest, reply: FastifyReply) {
  const html = pageHtml(config, req.url.split('?')[0]!);
  if (html === undefined) return reply.status(503).type('text/plain').send('The web app is not built: run npm run build.');
  return reply.type('text/html; charset=utf-8').send(html);
}

export function marketingRoutes(app: FastifyInstance, config: Config) {
  for (const url of marketingPaths()) {
    app.get(url, (req, reply) => sendPage(config, req, reply));
    // "/de/pricing/" is the same page at another address: moved for good to its canonical one.
    if (url !== '/') app.get(`${url}/`, (req, reply) => reply.redirect(url + req.url.slice(req.url.split('?')[0]!.length), 301));
  }
  app.get('/sitemap.xml', (_req, reply) => reply.type('application/xml; charset=utf-8').send(sitemapXml(config)));
  app.get('/robots.txt', (_req, reply) => reply.type('text/plain; charset=utf-8').send(robotsTxt(config)));
}
