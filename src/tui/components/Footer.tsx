import { Box, Text } from "ink";
import { useMemo } from "react";
import { type FooterView, infoRow, retryText, runState } from "../screen/index.js";
import { spinnerFrame } from "../transcript/index.js";

export interface FooterProps {
	view: FooterView;
	/** Context window of the current model in tokens, when known. */
	contextWindow?: number;
	now: number;
	width: number;
	home?: string;
}

/** The run's state, as text parts for the footer's first line. */
function RunLine({ view, now }: Pick<FooterProps, "view" | "now">) {
	const state = runState(view, now);
	if (state.kind === "compacting") {
		return (
			<>
				<Text color="cyan">{spinnerFrame(now)}</Text> Compacting the conversation… <Text dimColor>· esc to interrupt</Text>
			</>
		);
	}
	if (state.kind === "idle") return <Text dimColor>ready</Text>;
	return (
		<>
			<Text color="cyan">{spinnerFrame(now)}</Text> {state.label}
			<Text dimColor>{state.detail}</Text>
			<Text dimColor> · </Text>
			<Text bold>esc</Text>
			<Text dimColor> to interrupt</Text>
		</>
	);
}

/** The approval mode, coloured when the agent must ask or may only read; Shift+Tab changes it. */
function ApprovalMode({ mode }: { mode: string }) {
	return (
		<Text>
			<Text dimColor> · </Text>
			{mode === "auto" ? <Text dimColor>auto</Text> : <Text color="yellow">{mode}</Text>}
			<Text dimColor> (shift+tab)</Text>
		</Text>
	);
}

/** How many background shells run; /bashes lists them. */
function BackgroundShells({ count }: { count: number }) {
	return (
		<Text>
			<Text dimColor> · </Text>
			<Text color="cyan">{count === 1 ? "1 shell" : `${count} shells`}</Text>
			<Text dimColor> (/bashes)</Text>
		</Text>
	);
}

/** The conversation holds text from the web: auto mode asks before network and config changes until /trust-web. */
function TaintMark() {
	return (
		<Text>
			<Text dimColor> · </Text>
			<Text color="magenta">web text</Text>
			<Text dimColor> (/trust-web)</Text>
		</Text>
	);
}

export function Footer({ view, contextWindow, now, width, home }: FooterProps) {
	const { usage, contextTokens, session } = view;
	// Fitted again only when what it shows changes, not at every frame of a stream (or tick of the clock).
	const { info, context, contextColor } = useMemo(() => infoRow({ usage, contextTokens, session }, width, contextWindow, home), [usage, contextTokens, session, width, contextWindow, home]);
	return (
		<Box flexDirection="column" width={width}>
			{view.retry ? (
				<Text color="yellow" wrap="truncate-end">
					{retryText(view.retry, now)}
				</Text>
			) : null}
			{/* The mode sits on the short first line, so it is never cut off. */}
			<Text wrap="truncate-end">
				<RunLine view={view} now={now} />
				{view.session.approvalMode ? <ApprovalMode mode={view.session.approvalMode} /> : null}
				{view.session.backgroundShells ? <BackgroundShells count={view.session.backgroundShells} /> : null}
				{view.session.taint ? <TaintMark /> : null}
			</Text>
			<Text wrap="truncate-end">
				<Text dimColor>{info}</Text>
				{context !== undefined ? (
					<Text color={contextColor} dimColor={contextColor === undefined}>
						{context}
					</Text>
				) : null}
			</Text>
		</Box>
	);
}
