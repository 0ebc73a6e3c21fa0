import { useStdout } from "ink";
import { useEffect, useState } from "react";

export interface TerminalSize {
	columns: number;
	rows: number;
}

function measure(stdout: NodeJS.WriteStream): TerminalSize {
	return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}

/** The terminal's size, updated on resize. */
export function useTerminalSize(): TerminalSize {
	const { stdout } = useStdout();
	const [size, setSize] = useState(() => measure(stdout));
	useEffect(() => {
		const onResize = () => setSize(measure(stdout));
		stdout.on("resize", onResize);
		return () => {
			stdout.off("resize", onResize);
		};
	}, [stdout]);
	return size;
}
