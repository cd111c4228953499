/**
 * The MTA-STS policy file, host-based: https://mta-sts.<domain>/.well-known/mta-sts.txt, the
 * Host header naming the domain (the provider's reverse proxy sends mta-sts.* hosts here with
 * TLS: docs/configuration.md). Only domains in service (active, verified, customer active:
 * receives_mail) answer, and only while the mail server has a publishable name; anything else
 * is a bare 404 that says nothing.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../core/services.js';
import { mtaStsOf } from '../mail/dns-records.js';
import { mailHostnameProblem } from '../mail/mail-hostname.js';

const nothingHere = (reply: FastifyReply) => reply.status(404).type('text/plain').send('Not Found');

export function registerMtaStsPolicy(app: FastifyInstance, services: Services) {
  app.get('/.well-known/mta-sts.txt', async (request, reply) => {
    const host = request.hostname.toLowerCase().replace(/\.$/, '');
    const domain = host.startsWith('mta-sts.') ? host.slice('mta-sts.'.length) : '';
    if (!domain || domain.length > 253 || !/^[a-z0-9.-]+$/.test(domain) || mailHostnameProblem(services.config.mailHostname)) return nothingHere(reply);
    const row = await services.db.selectFrom('domain').select(['mta_sts_mode']).where('name', '=', domain).where('receives_mail', '=', 1).executeTakeFirst();
    if (!row) return nothingHere(reply);
    // Senders cache the policy for max_age themselves; the id in DNS tells them when to fetch again.
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(mtaStsOf(row, services.config.mailHostname).policy);
  });
}
