import { useStdin, useStdout } from "ink";
import { useCallback, useMemo } from "react";
import type { NoticeLevel } from "../../core/index.js";
import { editInEditor, suspendToShell } from "../screen/index.js";

export interface TerminalHandoff {
	/** Ctrl+G: `text` in the user's editor; resolves with the saved text, or undefined (and a notice) when that failed. */
	editExternally(text: string): Promise<string | undefined>;
	/** Ctrl+Z: loom stops until `fg`; the screen is drawn again after. */
	suspend(): void;
}

/** Lends the terminal to the user's editor or shell; `redraw` draws the whole screen again once it is back. */
export function useTerminalHandoff(redraw: () => void, notify: (level: NoticeLevel, text: string) => void): TerminalHandoff {
	const { stdin } = useStdin();
	const { stdout } = useStdout();
	const editExternally = useCallback(
		async (text: string) => {
			const outcome = editInEditor(text, { stdin, stdout });
			redraw();
			if ("error" in outcome) {
				notify("error", outcome.error);
				return undefined;
			}
			return outcome.text;
		},
		[stdin, stdout, redraw, notify],
	);
	const suspend = useCallback(() => {
		void suspendToShell({ stdin, stdout }).then(redraw);
	}, [stdin, stdout, redraw]);
	return useMemo(() => ({ editExternally, suspend }), [editExternally, suspend]);
}
