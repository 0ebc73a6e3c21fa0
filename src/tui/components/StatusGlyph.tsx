import { Text } from "ink";
import type { ToolStatus } from "../view-model.js";

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
export const SPINNER_INTERVAL_MS = 80;

export function spinnerFrame(now: number): string {
	return SPINNER_FRAMES[Math.floor(now / SPINNER_INTERVAL_MS) % SPINNER_FRAMES.length];
}

export interface StatusGlyphProps {
	status: ToolStatus;
	now: number;
}

export function StatusGlyph({ status, now }: StatusGlyphProps) {
	switch (status) {
		case "preparing":
			return <Text color="yellow">{spinnerFrame(now)}</Text>;
		case "running":
			return <Text color="cyan">{spinnerFrame(now)}</Text>;
		case "done":
			return <Text color="green">✓</Text>;
		case "error":
			return <Text color="red">✗</Text>;
	}
}
