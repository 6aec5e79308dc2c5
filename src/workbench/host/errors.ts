/** Errors shaped like `OfficeExtension.Error`: code, message, debugInfo. */

export type HostErrorCode =
  | 'PropertyNotLoaded'
  | 'ItemNotFound'
  | 'AccessDenied'
  | 'RequestPayloadSizeLimitExceeded'
  | 'InvalidArgument'
  | 'InvalidOperation'
  | 'InvalidReference'
  | 'ApiNotFound'
  | 'GeneralException';

export const ERROR_CODES: Record<HostErrorCode, HostErrorCode> = {
  PropertyNotLoaded: 'PropertyNotLoaded',
  ItemNotFound: 'ItemNotFound',
  AccessDenied: 'AccessDenied',
  RequestPayloadSizeLimitExceeded: 'RequestPayloadSizeLimitExceeded',
  InvalidArgument: 'InvalidArgument',
  InvalidOperation: 'InvalidOperation',
  InvalidReference: 'InvalidReference',
  ApiNotFound: 'ApiNotFound',
  GeneralException: 'GeneralException',
};

export class HostOfficeError extends Error {
  override name = 'OfficeExtension.Error';
  readonly code: HostErrorCode;
  readonly debugInfo: { code: HostErrorCode; message: string; errorLocation?: string };

  constructor(code: HostErrorCode, message: string, errorLocation?: string) {
    super(message);
    this.code = code;
    this.debugInfo = { code, message, ...(errorLocation ? { errorLocation } : {}) };
  }
}

export function propertyNotLoaded(property: string, objectKind: string): HostOfficeError {
  return new HostOfficeError(
    'PropertyNotLoaded',
    `The property '${property}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
    `${objectKind}.${property}`,
  );
}
