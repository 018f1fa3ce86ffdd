/** The pages of a trip (the web area serves them; feeds and oEmbed name them). */
export const tripPagePath = (tripId: string) => `/trips/${tripId}`;
/** A trip's embeddable card (the web area's GET /embed/trips/{id}), the iframe of its oEmbed answer. */
export const embedTripPath = (tripId: string) => `/embed/trips/${tripId}`;
