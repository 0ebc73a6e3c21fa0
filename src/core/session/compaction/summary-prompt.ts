// The summarisation request: the older messages as text, the previous summary if any, and the format wanted.
import type { AgentMessage } from "../../engine/index.js";
import { splitFileLists } from "./file-operations.js";
import { type SerializeOptions, serializeConversation } from "./serialize-conversation.js";

export const SUMMARY_SYSTEM_PROMPT = `You summarise conversations between a user and an AI coding agent, so that the agent can continue the work from your summary alone.
You never continue the conversation, answer questions asked in it, or call tools: you only write the summary, in the format requested.`;

const SUMMARY_FORMAT = `## Goal
What the user wants to achieve (a list if there are several goals).

## Constraints & preferences
- Requirements, conventions and preferences the user stated ("(none)" if none).

## Progress
### Done
- Completed work, with concrete results.
### In progress
- Work started but not finished.
### Blocked
- What stops progress, with the exact error if there is one ("(none)" if nothing).

## Key decisions
- **Decision**: why it was made.

## Next steps
1. What should happen next, in order.`;

const FIRST_SUMMARY_TASK = `The messages above are the earlier part of a conversation between a user and a coding agent. They will be removed from the agent's context and replaced by your summary; the agent still sees the more recent messages. Write a summary of them from which the agent can continue the work.`;

const UPDATE_SUMMARY_TASK = `The previous summary covers the conversation before the messages above; the messages continue it. Both will be removed from the agent's context and replaced by your summary; the agent still sees the more recent messages. Write an updated summary that builds on the previous one: keep everything in it that still holds, add the new progress, decisions and constraints, move finished work from "In progress" to "Done", and bring "Next steps" up to date.`;

const RULES = `Use exactly this Markdown format:

${SUMMARY_FORMAT}

Be concise, but keep every fact the agent needs to go on: exact file paths, function and variable names, commands, error messages and values. Do not write a section listing files read or modified: those lists are appended to your summary automatically from the tool calls. Reply with the summary only.`;

export type SummaryPromptOptions = SerializeOptions;

/**
 * The user message asking for a summary of `messagesToSummarize`. With `previousSummary` (the last compaction's
 * summary) the new summary updates it, so nothing summarised before is lost. `customInstructions`: from
 * `/compact <instructions>`, what to focus on. `maxChars` in the options bounds the conversation text.
 */
export function buildSummaryPrompt(
	messagesToSummarize: readonly AgentMessage[],
	previousSummary?: string,
	customInstructions?: string,
	options: SummaryPromptOptions = {},
): string {
	const parts: string[] = [];
	const previous = previousSummary === undefined ? "" : splitFileLists(previousSummary).body;
	if (previous !== "") parts.push(`<previous-summary>\n${previous}\n</previous-summary>`);
	parts.push(`<conversation>\n${serializeConversation(messagesToSummarize, options)}\n</conversation>`);
	parts.push(previous !== "" ? UPDATE_SUMMARY_TASK : FIRST_SUMMARY_TASK);
	parts.push(RULES);
	const focus = customInstructions?.trim();
	if (focus) parts.push(`Additional instructions from the user for this summary:\n${focus}`);
	return parts.join("\n\n");
}
