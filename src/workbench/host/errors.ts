/**
 * Errors shaped like `OfficeExtension.Error`: code, message, debugInfo. The message is the one Excel
 * itself gives for the code (learn.microsoft.com, "Error handling with the Excel JavaScript API"),
 * so code that shows Excel's errors is tested against what Excel says; what the host knows beyond
 * that (which cell, which API) is in `debugInfo.errorLocation` and `debugInfo.details`.
 */

export type HostErrorCode =
  | 'PropertyNotLoaded'
  | 'ItemNotFound'
  | 'AccessDenied'
  | 'RequestPayloadSizeLimitExceeded'
  | 'ResponsePayloadSizeLimitExceeded'
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
  ResponsePayloadSizeLimitExceeded: 'ResponsePayloadSizeLimitExceeded',
  InvalidArgument: 'InvalidArgument',
  InvalidOperation: 'InvalidOperation',
  InvalidReference: 'InvalidReference',
  ApiNotFound: 'ApiNotFound',
  GeneralException: 'GeneralException',
};

const LIMITS_DOC = 'See the Resource limits and performance optimization for Office Add-ins article for more information.';

/** Excel's own message for each code. */
export const EXCEL_MESSAGES: Record<HostErrorCode, string> = {
  PropertyNotLoaded: 'The property is not available.',
  ItemNotFound: "The requested resource doesn't exist.",
  AccessDenied: 'You cannot perform the requested operation.',
  RequestPayloadSizeLimitExceeded: `The request payload size has exceeded the limit. ${LIMITS_DOC}`,
  ResponsePayloadSizeLimitExceeded: `The response payload size has exceeded the limit. ${LIMITS_DOC}`,
  InvalidArgument: 'The argument is invalid or missing or has an incorrect format.',
  InvalidOperation: 'The operation attempted is invalid on the object.',
  InvalidReference: 'This reference is not valid for the current operation.',
  ApiNotFound:
    'The API you are trying to use could not be found. It may be available in a newer version of Excel. See the Excel JavaScript API requirement sets article for more information.',
  GeneralException: 'There was an internal error while processing the request.',
};

export class HostOfficeError extends Error {
  override name = 'OfficeExtension.Error';
  readonly code: HostErrorCode;
  readonly debugInfo: { code: HostErrorCode; message: string; errorLocation?: string; details?: string };

  /** `details`: what the host knows about this failure (kept out of the message, like Excel). */
  constructor(code: HostErrorCode, details?: string, errorLocation?: string, message = EXCEL_MESSAGES[code]) {
    super(message);
    this.code = code;
    this.debugInfo = { code, message, ...(errorLocation ? { errorLocation } : {}), ...(details ? { details } : {}) };
  }
}

/** Excel names the property in this one message. */
export function propertyNotLoaded(property: string, objectKind: string): HostOfficeError {
  return new HostOfficeError(
    'PropertyNotLoaded',
    undefined,
    `${objectKind}.${property}`,
    `The property '${property}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
  );
}
