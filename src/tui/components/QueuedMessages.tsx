import { Box, Text } from "ink";
import { stripToOneLine } from "../../core/index.js";

export interface QueuedMessagesProps {
	steering: string[];
	followUp: string[];
	width: number;
}

/** At most this many queued messages are listed; the rest are counted. */
export const MAX_QUEUED_SHOWN = 3;

export function queuedHeight(steering: string[], followUp: string[]): number {
	const total = steering.length + followUp.length;
	return total === 0 ? 0 : Math.min(total, MAX_QUEUED_SHOWN) + (total > MAX_QUEUED_SHOWN ? 1 : 0);
}

/** Messages typed during a run, waiting to be delivered; shown above the editor until they are. */
export function QueuedMessages({ steering, followUp, width }: QueuedMessagesProps) {
	const all = [...steering.map((text) => ({ text, label: "steer" })), ...followUp.map((text) => ({ text, label: "follow-up" }))];
	if (all.length === 0) return null;
	const shown = all.slice(0, MAX_QUEUED_SHOWN);
	return (
		<Box flexDirection="column" width={width}>
			{shown.map((item, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: queued texts may repeat
				<Text key={index} wrap="truncate-end">
					<Text color="cyan">↳ queued {item.label}: </Text>
					<Text dimColor>{stripToOneLine(item.text)}</Text>
				</Text>
			))}
			{all.length > shown.length ? <Text dimColor>  … and {all.length - shown.length} more</Text> : null}
		</Box>
	);
}
