// Door of the screen's state: the pure reducer from session events, the live area and footer layouts, the terminal hand-off.
export { DeltaBatch, deltaLength } from "./delta-batch.js";
export { FAST_STREAM_CHARS_PER_SECOND, FAST_STREAM_INTERVAL_MS, RENDER_INTERVAL_MS, nextRenderInterval } from "./frame-pacing.js";
export { footerHeight, infoRow, retryText, runState, type FooterView } from "./footer-text.js";
export { dialogMaxRows, liveBudget, planLiveArea } from "./live-layout.js";
export { pendingCallText, streamingRows, thinkingRows } from "./live-rows.js";
export { reduceView, type ScreenEvent } from "./reducer.js";
export { PASTE_OFF, PASTE_ON, editInEditor, releaseTerminal, setFocusReporting, suspendToShell } from "./terminal-handoff.js";
export { AttentionBell, FOCUS_OFF, FOCUS_ON, autoRing, ringSequence } from "./attention-bell.js";
export { drawFirstFrame } from "./first-frame.js";
