import { Text } from "ink";
import { statusGlyph } from "../tool-row-text.js";
import type { ToolStatus } from "../view-model.js";

export { SPINNER_FRAMES, SPINNER_INTERVAL_MS, spinnerFrame } from "../tool-row-text.js";

export interface StatusGlyphProps {
	status: ToolStatus;
	now: number;
}

export function StatusGlyph({ status, now }: StatusGlyphProps) {
	return <Text>{statusGlyph(status, now)}</Text>;
}
