/** Query parameters of the geographic routes: positions, distances, boxes, windows, switches. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Box } from './map-grid.ts';
import { maxZoom } from './map-grid.ts';

export const Latitude = (description: string) => Type.Number({ minimum: -90, maximum: 90, description });
export const Longitude = (description: string) => Type.Number({ minimum: -180, maximum: 180, description });

export const Distance = (limits: { defaultMetres: number; maxMetres: number }) =>
  Type.Number({
    exclusiveMinimum: 0,
    maximum: limits.maxMetres,
    default: limits.defaultMetres,
    description: `Metres from the centre, above 0 and at most ${limits.maxMetres} (default ${limits.defaultMetres})`,
  });

/** `personalize`: 1 or 0 as the interface writes it (true and false too); on by default. */
export const Personalize = Type.Optional(
  Type.Union([Type.Literal('1'), Type.Literal('0'), Type.Literal('true'), Type.Literal('false')], {
    description: "1 (default) filters through the viewer's topics' hashtags; 0 does not. Ignored without a viewer",
  }),
);
export const personalizes = (value: string | undefined) => value === undefined || value === '1' || value === 'true';

export const boxQuery = {
  south: Latitude('Southern edge, degrees'),
  west: Longitude('Western edge, degrees; greater than east for a box across the antimeridian'),
  north: Latitude('Northern edge, degrees, not below south'),
  east: Longitude('Eastern edge, degrees'),
  zoom: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: maxZoom,
      description: `The map's zoom, 0 to ${maxZoom} (default: from the box)`,
    }),
  ),
};

export function checkedBox(box: Box): Box {
  if (box.south > box.north) {
    throw new AppError('invalidQueryParameter', {
      source: { parameter: 'south' },
      detail: 'south must not be above north',
    });
  }
  return box;
}
