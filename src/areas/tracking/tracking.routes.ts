/**
 * Click tracking: the app's click route, the two /go redirects, the partners' conversion postback, the
 * admin reports and a creator's earnings (docs/api.md, "Clicks, redirects and commissions").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { alsoAnswer, errorPage, redirectTo } from '../../platform/http/answers.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { parseClientTime } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import type { ClickRequest } from './clicks.service.ts';
import { gonePage } from './gone-page.ts';
import {
  AdminClickSchema,
  ClickSchema,
  ConversionSchema,
  EarningSchema,
  EarningTotalsSchema,
  presentAdminClick,
  presentClick,
  presentConversion,
  presentEarning,
  presentEarningTotals,
  presentTargetReport,
  TargetReportSchema,
  targetTypes,
} from './presenters.ts';
import type { TrackingServices } from './public.ts';
import { earningsKeyset, type TargetType } from './tracking.repository.ts';

const offerParam = { id: idParam('The offer UUID', { hex: false }) };
const clickRule = perIp('offer-clicks', 60, 60);
const redirectRule = perIp('offer-redirects', 120, 60);

/** A /go link answers JSON errors to clients that ask for JSON, and a page to browsers. */
const wantsJson = (request: FastifyRequest) => (request.headers.accept ?? '').includes('json');

/** `from` / `to` of a report: RFC 3339 (parseClientTime), from before to. */
function windowOf(query: { from?: string | undefined; to?: string | undefined }) {
  const parse = (name: 'from' | 'to') => {
    const value = query[name];
    if (value === undefined) return null;
    const date = parseClientTime(value);
    if (date === null)
      throw new AppError('invalidQueryParameter', { source: { parameter: name }, detail: 'An RFC 3339 time' });
    return date;
  };
  const window = { from: parse('from'), to: parse('to') };
  if (window.from !== null && window.to !== null && window.from >= window.to)
    throw new AppError('invalidQueryParameter', { source: { parameter: 'to' }, detail: 'Must be after from' });
  return window;
}

/** The target id of a report: users and media take the 32-hex form too. */
function targetIdOf(type: TargetType, raw: string): string {
  const id = parseUuidOrHex(raw);
  if (id === null || ((type === 'offer' || type === 'establishment') && !raw.includes('-')))
    throw new AppError('invalidId', { source: { parameter: 'targetId' } });
  return id;
}

export function trackingRoutes({ clicks, conversions }: Pick<TrackingServices, 'clicks' | 'conversions'>): AnyRoute[] {
  const clickOf = (request: FastifyRequest, fields: Omit<ClickRequest, 'ip' | 'headers' | 'probe'>) =>
    clicks.click({ ...fields, ip: request.ip, headers: request.headers, probe: request.method === 'HEAD' });

  /** GET /go/...: record the click and redirect, or the 410 page for an offer that has ended. */
  async function redirect(
    request: FastifyRequest,
    reply: FastifyReply,
    locale: Locale,
    offerId: string,
    mediaId: string | null,
    viewerId: string | null,
  ) {
    try {
      const { redirectUrl } = await clickOf(request, {
        offerId,
        mediaId,
        viewerId,
        source: 'redirect',
        hiddenMedia: 'ignore',
      });
      reply.header('Cache-Control', 'no-store');
      return redirectTo(redirectUrl);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'offerGone' || wantsJson(request)) throw error;
      const establishmentId = (error.options.meta?.establishmentId as string | null | undefined) ?? null;
      reply.header('Cache-Control', 'no-store');
      return errorPage('offerGone', gonePage(locale, establishmentId));
    }
  }

  const goSuccess = {
    status: 302,
    description:
      "Found: Location is the offer's stored partner URL with `tm_ref=<click reference>` appended (its own query and fragment kept)",
  } as const;

  return [
    route({
      method: 'POST',
      path: '/api/offers/{id}/clicks',
      auth: 'optional',
      summary:
        "Record a click on an offer from a public media; answers the click reference and the URL to open (201, or 200 with the same reference for a duplicate: the same user, or without a token the same IP or IPv6 /64, within 30 minutes). The media owner's own click is recorded, never credited. 410 offerGone for an offer that has ended",
      params: offerParam,
      body: Type.Object(
        { mediaId: Type.String({ description: 'The public media the click came from: UUID or 32 hex digits' }) },
        { additionalProperties: false },
      ),
      errors: ['notFound', 'offerGone'],
      rateLimit: [clickRule],
      success: {
        status: 201,
        schema: DocumentSchema(ClickSchema),
        also: { 200: 'A duplicate click: the earlier click, nothing new recorded' },
      },
      handler: async ({ viewer, params, body, request }) => {
        if (parseUuidOrHex(body.mediaId) === null)
          throw new AppError('validationFailed', {
            source: { pointer: '/mediaId' },
            detail: 'A UUID or 32 hex digits',
          });
        const recorded = await clickOf(request, {
          offerId: params.id,
          mediaId: body.mediaId,
          viewerId: viewer?.userId ?? null,
          source: 'api',
          hiddenMedia: 'refuse',
        });
        const document = { data: presentClick(recorded) };
        return recorded.duplicate ? alsoAnswer(200, document) : document;
      },
    }),
    route({
      method: 'GET',
      path: '/go/offer/{id}',
      auth: 'optional',
      summary: "Record a click and redirect (302) to the offer's partner URL; 410 page for an offer that has ended",
      params: offerParam,
      errors: ['notFound', 'offerGone'],
      rateLimit: [redirectRule],
      success: goSuccess,
      handler: ({ params, request, reply, locale, viewer }) =>
        redirect(request, reply, locale, params.id, null, viewer?.userId ?? null),
    }),
    route({
      method: 'GET',
      path: '/go/offer/{id}/media/{mediaId}',
      auth: 'optional',
      summary:
        "Record a click credited to the media's owner (unless the owner's own browser, signed in, clicks) and redirect (302) to the offer's partner URL; a media that is not public still redirects, crediting no one",
      params: { ...offerParam, mediaId: idParam('The media: UUID or 32 hex digits') },
      errors: ['notFound', 'offerGone'],
      rateLimit: [redirectRule],
      success: goSuccess,
      handler: ({ params, request, reply, locale, viewer }) =>
        redirect(request, reply, locale, params.id, params.mediaId, viewer?.userId ?? null),
    }),
    route({
      method: 'POST',
      path: '/admin/tracking/conversions',
      auth: 'admin',
      summary:
        "A partner's conversion postback: 201 the conversion and the creator's commission; a replayed partnerTransactionId answers the first result with 200 and changes nothing",
      body: Type.Object(
        {
          ref: Type.String({ minLength: 1, maxLength: 64, description: 'The click reference (tm_ref)' }),
          amount: Type.Integer({
            minimum: 1,
            maximum: 1_000_000_000_000,
            description: 'The sale in integer minor units of the currency (cents for EUR), 1 to 10^12',
          }),
          currency: Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217, the offer's currency" }),
          partnerTransactionId: Type.String({
            minLength: 1,
            maxLength: 200,
            pattern: '^\\S(.*\\S)?$',
            description: 'The idempotency key: 1 to 200 characters, no spaces at either end',
          }),
          occurredAt: Type.Optional(
            Type.String({ format: 'date-time', description: 'RFC 3339; default now; within 30 days after the click' }),
          ),
        },
        { additionalProperties: false },
      ),
      errors: ['notFound', 'currencyMismatch', 'outsideAttributionWindow'],
      success: {
        status: 201,
        schema: DocumentSchema(ConversionSchema),
        also: { 200: 'A replay: the conversion first recorded for this partnerTransactionId' },
      },
      handler: async ({ body }) => {
        const { conversion, replay } = await conversions.record(body);
        const document = { data: presentConversion(conversion) };
        return replay ? alsoAnswer(200, document) : document;
      },
    }),
    route({
      method: 'GET',
      path: '/admin/tracking/clicks/{ref}',
      auth: 'admin',
      summary: 'One click: its attribution, its conversions and the commission they earned',
      params: { ref: Type.String({ maxLength: 64, description: 'The click reference' }) },
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(AdminClickSchema) },
      handler: async ({ params }) => ({ data: presentAdminClick(await conversions.clickReport(params.ref)) }),
    }),
    route({
      method: 'GET',
      path: '/admin/tracking/{targetType}/{targetId}',
      auth: 'admin',
      summary:
        'Clicks, credited clicks, conversions, revenue and commission of an offer, a media, a user (the creator credited) or an establishment, in a from/to window; an unknown targetType is 404',
      params: {
        targetType: Type.String({ description: 'offer, media, user or establishment' }),
        targetId: Type.String({ description: 'UUID (users and media: or 32 hex digits)' }),
      },
      query: {
        from: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339, inclusive' })),
        to: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339, exclusive' })),
      },
      errors: ['notFound', 'invalidId'],
      success: { status: 200, schema: DocumentSchema(TargetReportSchema) },
      handler: async ({ params, query }) => {
        const type = targetTypes.find((candidate) => candidate === params.targetType);
        if (type === undefined)
          throw new AppError('notFound', {
            source: { parameter: 'targetType' },
            detail: `One of ${targetTypes.join(', ')}`,
          });
        const id = targetIdOf(type, params.targetId);
        const window = windowOf(query);
        return { data: presentTargetReport(type, id, window, await conversions.targetReport(type, id, window)) };
      },
    }),
    route({
      method: 'GET',
      path: '/api/users/me/earnings',
      auth: 'user',
      summary:
        'My commissions as a creator: conversions of the clicks credited to me, newest first, with totals per currency in meta',
      page: { keyset: earningsKeyset },
      success: { status: 200, schema: CollectionSchema(EarningSchema, { totals: EarningTotalsSchema }) },
      handler: async ({ viewer, page, links }) => {
        const [rows, totals] = await Promise.all([
          conversions.earnings(viewer.userId, page),
          conversions.earningTotals(viewer.userId),
        ]);
        return listDocument(rows, { page, links }, earningsKeyset, presentEarning, {
          totals: presentEarningTotals(totals),
        });
      },
    }),
  ];
}
