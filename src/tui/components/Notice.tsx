import { Text } from "ink";
import type { NoticeLevel } from "../view-model.js";

export interface NoticeProps {
	level: NoticeLevel;
	text: string;
}

export function Notice({ level, text }: NoticeProps) {
	switch (level) {
		case "error":
			return <Text color="red">✗ {text}</Text>;
		case "warning":
			return <Text color="yellow">! {text}</Text>;
		default:
			return <Text dimColor>· {text}</Text>;
	}
}
