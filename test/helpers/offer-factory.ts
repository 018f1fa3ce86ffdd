/** An establishment and its offers, saved through the catalogue's services, for the tests of click tracking. */
import type { TestApp } from './app.ts';

type OfferWrite = Parameters<TestApp['services']['areas']['catalogue']['offers']['save']>[0];

export interface OfferFactory {
  establishmentId: string;
  /** A new live offer of the establishment (EUR, 7 %, a partner URL), with `fields` over those. */
  newOffer(fields?: Partial<OfferWrite>): Promise<string>;
}

export async function createOfferFactory(t: TestApp, name: string, kind = 'hotel'): Promise<OfferFactory> {
  const slug = name.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-');
  const { row: establishment } = await t.services.areas.catalogue.establishments.save({
    externalId: `${slug}-place`,
    name,
    kind,
    countryCode: 'FR',
  });
  let offers = 0;
  return {
    establishmentId: establishment.id,
    async newOffer(fields = {}) {
      offers += 1;
      const { row } = await t.services.areas.catalogue.offers.save({
        externalId: `${slug}-offer-${offers}`,
        title: { 'en-US': `${name}, offer ${offers}` },
        establishmentId: establishment.id,
        currency: 'EUR',
        commissionRateBps: 700,
        partnerUrl: 'https://partner.example/book',
        ...fields,
      });
      return row.id;
    },
  };
}
