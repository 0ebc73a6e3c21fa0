import { Box, Text } from "ink";

export interface UserPromptProps {
	text: string;
}

export function UserPrompt({ text }: UserPromptProps) {
	return (
		<Box>
			<Text color="magenta" bold>
				›{" "}
			</Text>
			<Text bold>{text}</Text>
		</Box>
	);
}
