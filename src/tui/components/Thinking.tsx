import { Text } from "ink";

export interface ThinkingProps {
	text: string;
	redacted: boolean;
	/** Full text, or a one-line summary (the transcript's default; Ctrl+T toggles). */
	expanded: boolean;
}

export function Thinking({ text, redacted, expanded }: ThinkingProps) {
	const trimmed = text.trim();
	if (redacted && trimmed === "") return <Text dimColor italic>✻ Thinking (redacted by the provider)</Text>;
	if (!expanded) {
		const lines = trimmed.split("\n").length;
		return (
			<Text dimColor italic>
				✻ Thinking · {lines} line{lines === 1 ? "" : "s"} (ctrl+t to show)
			</Text>
		);
	}
	return (
		<Text dimColor italic>
			✻ {trimmed}
		</Text>
	);
}
