// NO_COLOR (https://no-color.org): set and not empty, the screen adds no colour. FORCE_COLOR, which chalk reads
// for its level, wins over it. Colours are taken out of what the screen writes rather than by turning chalk off
// (level 0), which would take every style with them: the editor's cursor is inverse text, and bold, dim and
// underline carry meaning without colour.
import { slotOf } from "./wrap.js";

const SGR = /\u001b\[([0-9;:]*)m/g;

/** `text` with the colour parameters of its SGR sequences taken out; other styles and sequences stay. */
export function withoutColor(text: string): string {
	if (!text.includes("\u001b[")) return text;
	return text.replace(SGR, (sequence, body: string) => {
		if (body === "") return sequence;
		const kept = styleParams(body.split(";"));
		return kept.length === 0 ? "" : `\u001b[${kept.join(";")}m`;
	});
}

function styleParams(params: readonly string[]): string[] {
	const kept: string[] = [];
	for (let i = 0; i < params.length; i++) {
		const param = params[i]!;
		const code = Number(param.split(":")[0]);
		if (code === 38 || code === 48 || code === 58) {
			// 38;5;n and 38;2;r;g;b carry their arguments as parameters of their own; 38:2::r:g:b in one.
			if (!param.includes(":")) i += params[i + 1] === "5" ? 2 : params[i + 1] === "2" ? 4 : 0;
			continue;
		}
		const slot = slotOf(code);
		if (slot === "fg" || slot === "bg" || code === 59) continue;
		kept.push(param);
	}
	return kept;
}

/** The stream as the screen needs it, writing text without colour; everything else (size, events) is the stream's. */
export function colorlessStream<T extends NodeJS.WriteStream>(stream: T): T {
	const write = (chunk: unknown, ...rest: unknown[]) =>
		(stream.write as (...args: unknown[]) => boolean)(typeof chunk === "string" ? withoutColor(chunk) : chunk, ...rest);
	return new Proxy(stream, {
		get(target, property) {
			if (property === "write") return write;
			const value = Reflect.get(target, property, target) as unknown;
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}
