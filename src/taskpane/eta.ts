/** The fill session's time and size words, for the panes (one copy, in src/fill/session). */
export { estimateSecondsLeft, formatBytes, formatDuration, type RateSample } from '../fill/session/eta';
