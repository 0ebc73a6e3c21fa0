// A SessionUi that records what it was told and asked, and answers questions as scripted.
import type { NoticeLevel, SessionUi } from "../../src/core/session/index.js";

export interface RecordingUi extends SessionUi {
	/** "level: text", in order. */
	readonly notices: string[];
	/** The titles of the questions asked, in order. */
	readonly asked: string[];
}

/**
 * `answers`: what each select gets in turn (undefined: dismissed); without answers the ui is not interactive.
 * Confirm answers true for a true answer.
 */
export function recordingUi(answers?: unknown[]): RecordingUi {
	const notices: string[] = [];
	const asked: string[] = [];
	const next = () => (answers && answers.length > 0 ? answers.shift() : undefined);
	return {
		interactive: answers !== undefined,
		notices,
		asked,
		notify(level: NoticeLevel, text: string) {
			notices.push(`${level}: ${text}`);
		},
		async select(options) {
			asked.push(options.title);
			return next() as never;
		},
		async confirm(title) {
			asked.push(title);
			return next() === true;
		},
		async input(title) {
			asked.push(title);
			return next() as string | undefined;
		},
	};
}
