/**
 * Every error the service can answer, by stable code. The HTTP status lives here and only here;
 * the human title comes from the message catalogs (`errors.<code>`), so it is translated.
 * docs/api.md lists these codes; a test keeps the two in sync.
 */
export const errorCatalogue = {
  // 400
  malformedJson: 400,
  badRequest: 400,
  invalidQueryParameter: 400,
  invalidCursor: 400,
  invalidLastEventId: 400,
  // 401 / 403
  unauthenticated: 401,
  invalidCredentials: 401,
  invalidProviderToken: 401,
  passkeyRejected: 401,
  passkeyUserVerificationRequired: 401,
  twoFactorRequired: 401,
  twoFactorTicketInvalid: 401,
  forbidden: 403,
  accountBanned: 403,
  reauthenticationRequired: 403,
  reactionsNotPublic: 403,
  crossOriginRequest: 403,
  contentWarningByModerator: 403,
  // 404 / 405 / 406
  notFound: 404,
  providerNotConfigured: 404,
  routeNotFound: 404,
  methodNotAllowed: 405,
  notAcceptable: 406,
  // 409
  emailTaken: 409,
  collectionNameTaken: 409,
  collectionLimitReached: 409,
  filterLimitReached: 409,
  usernameTaken: 409,
  usernameAlreadySet: 409,
  alreadyFollowing: 409,
  conflict: 409,
  mediaAlreadyClaimed: 409,
  mediaNotClaimed: 409,
  mediaNotInQueue: 409,
  alreadyReported: 409,
  reportAlreadyResolved: 409,
  couponCodeTaken: 409,
  couponAlreadyRedeemed: 409,
  couponExhausted: 409,
  identityEmailInUse: 409,
  identityLinkedElsewhere: 409,
  providerAlreadyLinked: 409,
  lastSignInMethod: 409,
  exportInProgress: 409,
  passkeyAlreadyRegistered: 409,
  passkeyLimitReached: 409,
  twoFactorAlreadyEnabled: 409,
  twoFactorNotEnabled: 409,
  twoFactorNotPending: 409,
  alreadyAppealed: 409,
  appealWindowClosed: 409,
  appealAlreadyDecided: 409,
  decisionNotReversible: 409,
  photoInPost: 409,
  postLeadRemoval: 409,
  federationOff: 409,
  // 410
  tokenExpired: 410,
  offerGone: 410,
  // 408 / 431 (answered by the HTTP server itself, see client-errors.ts)
  requestTimeout: 408,
  headersTooLarge: 431,
  // 413 / 415
  payloadTooLarge: 413,
  uriTooLong: 414,
  unsupportedMediaType: 415,
  fileTooLarge: 413,
  imageTooLarge: 413,
  mediaQuotaExceeded: 413,
  unsupportedImage: 415,
  rangeNotSatisfiable: 416,
  // 422
  validationFailed: 422,
  invalidId: 422,
  invalidToken: 422,
  tokenUsed: 422,
  weakPassword: 422,
  wrongPassword: 422,
  usernameChangeTooSoon: 422,
  usernameRequired: 422,
  cannotFollowSelf: 422,
  cannotBlockSelf: 422,
  cannotMuteSelf: 422,
  expiryInPast: 422,
  fileMissing: 422,
  corruptImage: 422,
  cannotReportSelf: 422,
  actionNotApplicable: 422,
  invalidParentComment: 422,
  parentCommentDeleted: 422,
  currencyMismatch: 422,
  outsideAttributionWindow: 422,
  couponInvalid: 422,
  identityEmailMissing: 422,
  passkeyRegistrationRejected: 422,
  twoFactorCodeInvalid: 422,
  // 429 / 503 / 500
  rateLimited: 429,
  maintenance: 503,
  variantNotReady: 503,
  databaseUnavailable: 503,
  notReady: 503,
  internal: 500,
  providerUnavailable: 502,
  formatNotImplemented: 501,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
  header?: string;
}

/** A coded domain error. Services throw these; the one error handler turns them into JSON:API. */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly options: {
    detail?: string;
    source?: ErrorSource;
    meta?: Record<string, unknown>;
    /** Values for the message placeholders of `errors.<code>`. */
    values?: Record<string, string | number>;
    headers?: Record<string, string>;
  };

  constructor(
    code: ErrorCode,
    options: {
      detail?: string;
      source?: ErrorSource;
      meta?: Record<string, unknown>;
      /** Values for the message placeholders of `errors.<code>`. */
      values?: Record<string, string | number>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(options.detail ?? code);
    this.code = code;
    this.options = options;
    this.status = errorCatalogue[code];
  }
}

/** One JSON:API document can carry several errors (e.g. one per invalid field). */
export class AppErrors extends Error {
  readonly status: number;
  readonly errors: AppError[];
  /** The error document's root `meta` (e.g. how many errors were left out). */
  readonly meta: Record<string, unknown> | undefined;

  constructor(status: number, errors: AppError[], meta?: Record<string, unknown>) {
    super(errors.map((error) => error.code).join(', '));
    this.status = status;
    this.errors = errors;
    this.meta = meta;
  }
}
