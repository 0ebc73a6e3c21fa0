import { useStdin } from "ink";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { NoticeLevel } from "../../core/index.js";
import { type Dialog, DialogQueue } from "../dialogs/index.js";
import type { SessionPort } from "../session-port.js";

export interface Dialogs {
	/** The screen's SessionUi: commands are handed it as `ctx.ui`. */
	ui: DialogQueue;
	/** The dialog to show in place of the editor, if any. */
	current: Dialog | undefined;
}

/**
 * The screen's dialogs: installed as the session's UI while the screen is mounted (the previous UI is put
 * back after, and dialogs still open are closed with no answer). Not interactive without a terminal.
 */
export function useDialogs(session: SessionPort, notify: (level: NoticeLevel, text: string) => void, interactive: boolean): Dialogs {
	const notifyRef = useRef(notify);
	notifyRef.current = notify;
	const [ui] = useState(() => new DialogQueue((level, text) => notifyRef.current(level, text), interactive));
	useEffect(() => {
		const previous = session.ui;
		session.setUi(ui);
		return () => {
			ui.closeAll();
			session.setUi(previous);
		};
	}, [session, ui]);
	// Raw mode stays on while the editor hands the keyboard to a dialog and back: if the count of Ink's key
	// listeners went through zero, Ink would leave raw mode and drop a half-read key sequence.
	const { setRawMode, isRawModeSupported } = useStdin();
	useEffect(() => {
		if (!interactive || isRawModeSupported !== true) return;
		setRawMode(true);
		return () => setRawMode(false);
	}, [interactive, isRawModeSupported, setRawMode]);
	const current = useSyncExternalStore(ui.subscribe, ui.current);
	return { ui, current };
}
