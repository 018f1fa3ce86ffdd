import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp, Uuid } from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { RecordedClick } from './clicks.service.ts';
import type { ClickReport, TargetReport } from './conversions.service.ts';
import { credited } from './conversions.service.ts';
import { toNumber } from './money.ts';
import type { ClickRow, ConversionRow } from './tables.ts';
import type { CurrencyTotals, Earning, TargetType, Window } from './tracking.repository.ts';

const MinorUnits = (description: string) => Type.Integer({ description: `${description}, in integer minor units` });

const TotalsSchema = Type.Array(
  Type.Object({
    currency: Type.String({ description: 'ISO 4217' }),
    conversions: Type.Integer(),
    revenue: MinorUnits('Sum of the conversion amounts'),
    commission: MinorUnits('Sum of the creator commissions'),
  }),
  { description: 'Per currency, in code order' },
);
const presentTotals = (totals: CurrencyTotals[]) =>
  totals.map((total) => ({
    currency: total.currency,
    conversions: total.conversions,
    revenue: toNumber(total.revenue),
    commission: toNumber(total.commission),
  }));

/** The answer to POST /api/offers/{id}/clicks: the reference and where to send the user. */
export const ClickSchema = ResourceSchema(
  'tracking-clicks',
  Type.Object({
    ref: Type.String({ description: 'The click reference (22 base64url characters), also the id' }),
    redirectUrl: Type.String({ description: "The offer's partner URL with `tm_ref=<ref>` appended" }),
    offerId: Uuid,
    mediaId: Nullable(Uuid),
    createdAt: Timestamp,
  }),
  undefined,
  'TrackingClick',
);

export function presentClick({ click, redirectUrl }: RecordedClick) {
  return resource('tracking-clicks', click.ref, {
    ref: click.ref,
    redirectUrl,
    offerId: click.offerId,
    mediaId: click.mediaId,
    createdAt: formatTimestamp(click.createdAt),
  });
}

const conversionAttributes = {
  ref: Type.String({ description: 'The click it is attributed to' }),
  partnerTransactionId: Type.String(),
  amount: MinorUnits('The sale'),
  currency: Type.String({ description: 'ISO 4217' }),
  commission: MinorUnits("The creator's commission (0 for an uncredited click)"),
  occurredAt: Timestamp,
  createdAt: Timestamp,
};

export const ConversionSchema = ResourceSchema(
  'tracking-conversions',
  Type.Object(conversionAttributes),
  undefined,
  'TrackingConversion',
);

const conversionValues = (row: ConversionRow) => ({
  ref: row.clickRef,
  partnerTransactionId: row.partnerTransactionId,
  amount: toNumber(row.amount),
  currency: row.currency,
  commission: toNumber(row.commission),
  occurredAt: formatTimestamp(row.occurredAt),
  createdAt: formatTimestamp(row.createdAt),
});

export const presentConversion = (row: ConversionRow) =>
  resource('tracking-conversions', row.id, conversionValues(row));

export const AdminClickSchema = ResourceSchema(
  'tracking-clicks',
  Type.Object({
    ref: Type.String(),
    offerId: Uuid,
    mediaId: Nullable(Uuid),
    creatorId: Nullable(Uuid),
    establishmentId: Nullable(Uuid),
    brandId: Nullable(Uuid),
    viewerId: Nullable(Uuid),
    source: StringEnum(['api', 'redirect'] as const, { description: 'POST /api/offers/{id}/clicks or a /go link' }),
    bot: Type.Boolean({ description: 'A known bot or link prefetcher (never credited)' }),
    ownClick: Type.Boolean({
      description:
        "By the media's own creator (signed in with a token, or on a /go link with the web sign-in cookie): never credited",
    }),
    credited: Type.Boolean({
      description: "Earns its creator a commission: not a bot, on a public media, not the creator's own click",
    }),
    currency: Type.String(),
    commissionRateBps: Type.Integer({ description: "The offer's rate at click time, in basis points" }),
    createdAt: Timestamp,
    conversions: Type.Array(Type.Object({ id: Uuid, ...conversionAttributes }), {
      description: 'Oldest first, at most 100',
    }),
    totals: TotalsSchema,
  }),
  undefined,
  'AdminTrackingClick',
);

export function presentAdminClick({ click, conversions, totals }: ClickReport) {
  return resource('tracking-clicks', click.ref, {
    ...clickValues(click),
    conversions: conversions.map((row) => ({ id: row.id, ...conversionValues(row) })),
    totals: presentTotals(totals),
  });
}

const clickValues = (click: ClickRow) => ({
  ref: click.ref,
  offerId: click.offerId,
  mediaId: click.mediaId,
  creatorId: click.creatorId,
  establishmentId: click.establishmentId,
  brandId: click.brandId,
  viewerId: click.viewerId,
  source: click.source,
  bot: click.bot,
  ownClick: click.ownClick,
  credited: credited(click),
  currency: click.currency,
  commissionRateBps: click.commissionRateBps,
  createdAt: formatTimestamp(click.createdAt),
});

export const targetTypes = ['offer', 'media', 'user', 'establishment'] as const;

export const TargetReportSchema = ResourceSchema(
  'tracking-reports',
  Type.Object({
    targetType: StringEnum(targetTypes),
    targetId: Uuid,
    from: Nullable(Timestamp),
    to: Nullable(Timestamp),
    clicks: Type.Integer({ description: 'Clicks made in the window, bots included' }),
    creditedClicks: Type.Integer({
      description: "Clicks that earn a creator: not bots, on a public media, not the creator's own",
    }),
    botClicks: Type.Integer(),
    ownClicks: Type.Integer({ description: "Creators' clicks on their own media (recorded, never credited)" }),
    conversions: Type.Integer({ description: "Conversions in the window (by occurredAt) of the target's clicks" }),
    totals: TotalsSchema,
  }),
  undefined,
  'TrackingReport',
);

export function presentTargetReport(type: TargetType, id: string, window: Window, report: TargetReport) {
  return resource('tracking-reports', `${type}:${id}`, {
    targetType: type,
    targetId: id,
    from: window.from === null ? null : formatTimestamp(window.from),
    to: window.to === null ? null : formatTimestamp(window.to),
    clicks: report.clicks,
    creditedClicks: report.creditedClicks,
    botClicks: report.botClicks,
    ownClicks: report.ownClicks,
    conversions: report.totals.reduce((sum, total) => sum + total.conversions, 0),
    totals: presentTotals(report.totals),
  });
}

export const EarningSchema = ResourceSchema(
  'earnings',
  Type.Object({
    offerId: Uuid,
    mediaId: Nullable(Uuid),
    ownClick: Type.Boolean({ description: 'My own purchase, through my own click: never credited (commission 0)' }),
    currency: Type.String({ description: 'ISO 4217' }),
    commission: MinorUnits('What this conversion earned me'),
    occurredAt: Timestamp,
    createdAt: Timestamp,
  }),
  undefined,
  'Earning',
);

export const EarningTotalsSchema = Type.Array(
  Type.Object({ currency: Type.String(), conversions: Type.Integer(), commission: MinorUnits('Earned') }),
  { description: 'My earnings per currency, over all time: the conversions of my credited clicks (not my own)' },
);

export const presentEarningTotals = (totals: CurrencyTotals[]) =>
  totals.map((total) => ({
    currency: total.currency,
    conversions: total.conversions,
    commission: toNumber(total.commission),
  }));

export const presentEarning = (row: Earning) =>
  resource('earnings', row.id, {
    offerId: row.offerId,
    mediaId: row.mediaId,
    ownClick: row.ownClick,
    currency: row.currency,
    commission: toNumber(row.commission),
    occurredAt: formatTimestamp(row.occurredAt),
    createdAt: formatTimestamp(row.createdAt),
  });
