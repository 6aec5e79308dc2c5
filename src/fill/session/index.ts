export * from './types';
export { DEFAULT_STALL_MS, SessionError, createFillSession, freshSteps, initialState, type FillSession } from './controller';
export { cellKey, textHash, withCorrection } from './corrections';
export { estimateSecondsLeft, formatBytes, formatDuration, type RateSample } from './eta';
