/**
 * Mail programs configure themselves from the panel: Thunderbird's autoconfig
 * (/.well-known/autoconfig/mail/config-v1.1.xml, and /mail/config-v1.1.xml as served on
 * autoconfig.<domain>), Outlook's autodiscover (POST or GET /autodiscover/autodiscover.xml),
 * and, per mailbox, the settings to type in and an Apple configuration profile. Only active,
 * verified domains of active customers answer; anything else is a bare 404 that says nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mailbox as mailboxResource } from '../../resources/mailbox.js';
import { staff, type Area } from '../../resources/define.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { idInput } from '../core/resource-calls.js';
import { findVisible } from '../core/scope.js';
import type { Services } from '../core/services.js';
import { appleProfile, autodiscoverAddress, autodiscoverResponse, clientSettings, thunderbirdConfig } from './client-settings.js';

/** The domain (punycode, lower case) of an address or host name, if it is one of ours in service. */
async function servedDomain(services: Services, name: string | undefined): Promise<string | undefined> {
  const domain = name?.trim().toLowerCase().replace(/\.$/, '');
  if (!domain || domain.length > 253 || !/^[a-z0-9.-]+$/.test(domain)) return undefined;
  const row = await services.db
    .selectFrom('domain')
    .innerJoin('user', 'user.id', 'domain.owner_id')
    .select('domain.name')
    .where('domain.name', '=', domain)
    .where('domain.status', '=', 'active')
    .where('domain.verified_at', 'is not', null)
    .where('user.status', '=', 'active')
    .executeTakeFirst();
  return row?.name;
}

const domainOfAddress = (address: string | undefined) => (address && /^[^@\s]+@[^@\s]+$/.test(address) ? address.split('@')[1] : undefined);

const nothingHere = (reply: FastifyReply) => reply.status(404).type('text/plain').send('Not Found');

export function registerMailClientConfig(app: FastifyInstance, services: Services) {
  const thunderbird = async (request: FastifyRequest<{ Querystring: { emailaddress?: string } }>, reply: FastifyReply) => {
    const address = request.query.emailaddress?.trim().toLowerCase();
    // Without an address, the host asked (autoconfig.<domain>) names the domain.
    const host = String(request.headers.host ?? '').replace(/:\d+$/, '').replace(/^autoconfig\./, '');
    const domain = await servedDomain(services, address ? domainOfAddress(address) : host);
    if (!domain) return nothingHere(reply);
    const settings = clientSettings(services.config, address ?? `%EMAILADDRESS%`);
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').send(thunderbirdConfig(settings, domain));
  };
  app.get('/.well-known/autoconfig/mail/config-v1.1.xml', thunderbird);
  app.get('/mail/config-v1.1.xml', thunderbird);

  // Outlook posts a small XML document; its parser lives only in this scope.
  void app.register(async (scope) => {
    scope.addContentTypeParser(['text/xml', 'application/xml'], { parseAs: 'string' }, (_request, body, done) => done(null, String(body)));
    const autodiscover = async (request: FastifyRequest<{ Querystring: { emailaddress?: string }; Body: unknown }>, reply: FastifyReply) => {
      const address = (typeof request.body === 'string' ? autodiscoverAddress(request.body) : undefined) ?? request.query.emailaddress;
      const normalised = address?.trim().toLowerCase();
      const domain = await servedDomain(services, domainOfAddress(normalised));
      if (!domain || !normalised) return nothingHere(reply);
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').send(autodiscoverResponse(clientSettings(services.config, normalised)));
    };
    for (const url of ['/autodiscover/autodiscover.xml', '/Autodiscover/Autodiscover.xml']) {
      scope.post(url, autodiscover);
      scope.get(url, autodiscover);
    }
  });
}

/** A mailbox the caller may see; settings are given whatever its domain's state (the page says when it is not in service yet). */
async function mailboxSettings(ctx: CallContext, area: Area, id: number) {
  const box = await findVisible(mailboxResource, area, ctx, id);
  const domainName = String(box.address).split('@')[1];
  const inService = Boolean(await servedDomain(ctx.services, domainName)) && Boolean(box.active);
  return { box, settings: clientSettings(ctx.services.config, String(box.address)), inService };
}

const settingsSummary =
  'How a mail program reaches the mailbox: IMAP and SMTP submission host (MAIL_HOSTNAME), ports and security (ssl = TLS from the start, starttls), the login name (the full address), and whether the mailbox is in service (active mailbox of an active, verified domain). Thunderbird and Outlook find the same settings themselves through autoconfig/autodiscover.';
const profileSummary = 'An Apple configuration profile (.mobileconfig, XML property list) that sets the mailbox up in Apple Mail on macOS, iOS and iPadOS; the password is asked on installation.';

const profileOf = async (ctx: CallContext, area: Area, id: number) => {
  const { box, settings } = await mailboxSettings(ctx, area, id);
  const identifierBase = new URL(ctx.services.config.publicUrl).hostname.split('.').reverse().join('.');
  return { filename: `${String(box.address)}.mobileconfig`, content_type: 'application/x-apple-aspen-config', content: appleProfile(settings, String(box.name ?? ''), identifierBase) };
};

export const mailClientCalls = [
  defineCall({ method: 'GET', path: '/api/admin/email/client_settings', auth: 'customer', tag: 'admin/email', summary: settingsSummary, input: idInput, handler: async ({ id }, ctx) => { const { settings, inService } = await mailboxSettings(ctx, 'admin', id); return { ...settings, in_service: inService }; } }),
  defineCall({ method: 'GET', path: '/api/manage/email/client_settings', auth: 'operator', roles: staff, tag: 'manage/email', summary: settingsSummary, input: idInput, handler: async ({ id }, ctx) => { const { settings, inService } = await mailboxSettings(ctx, 'manage', id); return { ...settings, in_service: inService }; } }),
  defineCall({
    method: 'GET',
    path: '/api/mail/me/client_settings',
    auth: 'mailbox',
    tag: 'mail/me',
    summary: `The signed-in mailbox's settings, as /api/admin/email/client_settings gives them. ${settingsSummary}`,
    input: z.object({}),
    handler: async (_input, ctx) => ({ ...clientSettings(ctx.services.config, ctx.actor.address), in_service: Boolean(await servedDomain(ctx.services, ctx.actor.address.split('@')[1])) }),
  }),
  defineCall({ method: 'GET', path: '/api/admin/email/apple_profile', auth: 'customer', tag: 'admin/email', summary: profileSummary, input: idInput, handler: ({ id }, ctx) => profileOf(ctx, 'admin', id) }),
];
