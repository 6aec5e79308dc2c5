export * from './types';
export { DEFAULT_STALL_MS, FillSession, SessionError, freshSteps, initialState } from './controller';
export { cellKey, textHash, withCorrection } from './corrections';
export { estimateSecondsLeft, formatBytes, formatDuration, type RateSample } from './eta';
