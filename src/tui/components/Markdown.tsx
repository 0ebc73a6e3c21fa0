import { Text } from "ink";
import { useMemo } from "react";
import { renderMarkdown } from "../markdown.js";

export interface MarkdownProps {
	text: string;
	width: number;
}

export function Markdown({ text, width }: MarkdownProps) {
	const rendered = useMemo(() => renderMarkdown(text.replace(/\s+$/, ""), width), [text, width]);
	if (rendered === "") return null;
	return <Text>{rendered}</Text>;
}
